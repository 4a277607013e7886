package dev.orderpipeline.lab.scale;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.LagFollower;
import dev.orderpipeline.lab.backlog.StackSession;
import dev.orderpipeline.lab.backlog.WorkerFleet;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Runs the grid. Per partition count the command topic is recreated empty; workers then join one by one (a new
 * group per partition count), and at each worker count every key distribution gets a backlog of its own.
 *
 * <p>The backlog is sent once the group is stable with all its members: the workers' start-up and the rebalances
 * that members joining cause stay out of the measurement. The producer outpaces the workers many times over, so the
 * workers face a full backlog from the first second, as if it had been there before.
 */
public record ScaleExperiment(StackTarget target, ScaleSettings settings, Progress progress) {

    public List<ScaleCell> run() {
        var cells = new ArrayList<ScaleCell>();
        var tag = UUID.randomUUID().toString().substring(0, 8);
        try (var session = new StackSession(target, progress)) {
            for (var partitions : settings.partitionCounts()) {
                session.fleet().stopAll();
                progress.phase("topic with " + partitions + " partition(s)", 0);
                session.watch().recreateCommandTopic(partitions);
                var group = "lab-scale-" + tag + "-p" + partitions;
                var arguments = List.of(
                        "--orderpipeline.worker.group-id=" + group,
                        "--orderpipeline.topics.command-partitions=" + partitions);
                for (var workers : settings.workerCounts()) {
                    progress.phase("P=" + partitions + ": starting workers up to " + workers, 0);
                    session.join(group, arguments, workers, settings.warmup(), settings.timeout());
                    for (var keys : settings.keys()) {
                        progress.item(
                                "cell",
                                cells.size() + 1,
                                settings.cells(),
                                ScaleCell.label(partitions, workers, keys.label()));
                        var cell = runCell(session, tag, group, partitions, workers, keys);
                        progress.note(String.format(
                                Locale.ROOT,
                                "%s: %.0f commands/s, end-to-end p50 %.0f ms p99 %.0f ms, busiest partition %.0f%%%s",
                                cell.label(),
                                cell.perSecond(),
                                cell.endToEnd().p50Ms(),
                                cell.endToEnd().p99Ms(),
                                cell.busiestPartitionShare() * 100,
                                cell.invariants().violatedNote()));
                        cells.add(cell);
                    }
                }
            }
        }
        return cells;
    }

    private ScaleCell runCell(
            StackSession session, String tag, String group, int partitions, int workers, KeyDistribution keys) {
        var name = ScaleCell.label(partitions, workers, keys.label());
        var cellTag = "scale-" + tag + "-p" + partitions + "w" + workers + "-"
                + keys.label().replace(':', '_');
        var backlog = session.backlog(cellTag, keys, settings.commands());
        var from = session.mark();
        var sampler = session.sample();
        progress.phase(name, backlog.size());
        var clockStart = System.nanoTime();
        var sending = session.sendInBackground(backlog, 0);
        var members = session.fleet().alive();
        var timeline = new LagFollower(session.watch(), group, settings.lagInterval(), true, false)
                .follow(
                        from.commands(),
                        backlog.size(),
                        clockStart,
                        settings.timeout(),
                        progress,
                        (sample, consumed) -> {
                            WorkerFleet.requireAlive(members, name);
                            if (sending.isCompletedExceptionally()) {
                                sending.join();
                            }
                        });
        var resources = sampler.stop();
        var sent = StackSession.sent(sending);
        var drainedMillis = timeline.drainedAtMillis(backlog.size()).orElseThrow();
        progress.phase(name + ": results and invariants", 0);
        var results = session.results(from, backlog, sent.sentAtMillis());
        var endToEnd = results.endToEnd();
        var invariants = session.invariants(backlog);
        return new ScaleCell(
                partitions,
                workers,
                keys.label(),
                backlog.size(),
                backlog.products().size(),
                Math.round(sent.perSecond()),
                drainedMillis / 1000.0,
                Math.round(backlog.size() * 10000.0 / drainedMillis) / 10.0,
                endToEnd != null ? endToEnd : new Latency(0, 0, 0, 0, 0, 0, 0, 0, 0),
                ScaleCell.recordsPerPartition(timeline),
                ScaleCell.lagPoints(timeline),
                results.duplicates(),
                resources,
                invariants,
                CheckoutCost.of(resources, invariants.completed() + invariants.rejected()));
    }
}
