package dev.orderpipeline.lab.scale;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.backlog.Backlog;
import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.CommandProducer;
import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.LagFollower;
import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.backlog.Warmup;
import dev.orderpipeline.lab.backlog.WorkerFleet;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Runs the grid. Per partition count the command topic is recreated empty; workers then join one by one (a new
 * group per partition count), and at each worker count every key distribution gets a backlog of its own.
 *
 * <p>The backlog is sent once the group is stable with all its members: the workers' start-up and the rebalances
 * that members joining cause stay out of the measurement. The producer outpaces the workers many times over, so the
 * workers face a full backlog from the first second, as if it had been there before.
 */
public final class ScaleExperiment {

    private static final Duration STABLE_TIMEOUT = Duration.ofMinutes(3);

    private final StackTarget target;
    private final ScaleSettings settings;
    private final Progress progress;
    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    public ScaleExperiment(StackTarget target, ScaleSettings settings, Progress progress) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
    }

    public List<ScaleCell> run() {
        var cells = new ArrayList<ScaleCell>();
        var cellCount = settings.partitionCounts().size()
                * settings.workerCounts().size()
                * settings.distributions().size();
        try (var watch = new GroupWatch(target.bootstrapServers());
                var fleet = new WorkerFleet(target)) {
            for (var partitions : settings.partitionCounts()) {
                fleet.stopAll();
                progress.phase("topic with " + partitions + " partition(s)", 0);
                watch.recreateCommandTopic(partitions);
                var group = "lab-scale-" + tag + "-p" + partitions;
                var arguments = List.of(
                        "--orderpipeline.worker.group-id=" + group,
                        "--orderpipeline.topics.command-partitions=" + partitions);
                for (var workers : settings.workerCounts()) {
                    progress.phase("P=" + partitions + ": starting workers up to " + workers, 0);
                    var starting = new ArrayList<dev.orderpipeline.infra.AppProcess>();
                    while (fleet.alive().size() + starting.size() < workers) {
                        starting.add(fleet.start(arguments));
                    }
                    starting.forEach(fleet::awaitReady);
                    watch.awaitStable(group, workers, STABLE_TIMEOUT);
                    Warmup.run(
                            target,
                            watch,
                            group,
                            "scale-" + tag + "-p" + partitions + "w" + workers + "-warmup",
                            settings.warmup(),
                            settings.timeout(),
                            progress);
                    for (var keys : settings.distributions()) {
                        progress.item("cell", cells.size() + 1, cellCount, cellName(partitions, workers, keys));
                        var cell = runCell(watch, fleet, group, partitions, workers, keys);
                        progress.note(String.format(
                                Locale.ROOT,
                                "%s: %.0f commands/s, end-to-end p50 %.0f ms p99 %.0f ms, busiest partition %.0f%%%s",
                                cell.label(),
                                cell.perSecond(),
                                cell.endToEnd().p50Ms(),
                                cell.endToEnd().p99Ms(),
                                cell.busiestPartitionShare() * 100,
                                cell.invariants().holds()
                                        ? ""
                                        : "  VIOLATED: " + cell.invariants().violations()));
                        cells.add(cell);
                    }
                }
            }
        }
        return cells;
    }

    private ScaleCell runCell(
            GroupWatch watch, WorkerFleet fleet, String group, int partitions, int workers, KeyDistribution keys) {
        var database = target.database();
        var name = cellName(partitions, workers, keys);
        var cellTag = "scale-" + tag + "-p" + partitions + "w" + workers + "-"
                + keys.label().replace(':', '_');
        Backlog backlog = new BacklogWriter(database.dataSource())
                .create(
                        cellTag,
                        keys,
                        settings.commands(),
                        orders -> (int) Math.min(Integer.MAX_VALUE, 2L * orders),
                        cellTag.hashCode(),
                        progress);
        var resultsFrom = watch.endOffsets(Topics.CHECKOUT_RESULTS);
        var start = watch.endOffsets(Topics.CHECKOUT_COMMANDS);
        var watched = new ArrayList<>(target.processes());
        watched.addAll(fleet.watched());
        watched.add(new ResourceSampler.Watched("lab", ProcessHandle.current().pid()));
        var sampler = ResourceSampler.start(watched, database, Duration.ofMillis(500));
        progress.phase(name, backlog.size());
        var clockStart = System.nanoTime();
        var sending = CompletableFuture.supplyAsync(
                () -> CommandProducer.send(target.bootstrapServers(), backlog, true, Progress.silent()),
                task -> Thread.ofPlatform()
                        .name("lab-backlog-producer")
                        .daemon()
                        .start(task));
        var expected = workers;
        var timeline = new LagFollower(watch, group, settings.lagInterval(), true, false)
                .follow(start, backlog.size(), clockStart, settings.timeout(), progress, (sample, consumed) -> {
                    if (fleet.alive().size() < expected) {
                        throw new IllegalStateException("a worker exited during " + name);
                    }
                    if (sending.isCompletedExceptionally()) {
                        sending.join();
                    }
                });
        var resources = sampler.stop();
        CommandProducer.Sent sent;
        try {
            sent = sending.get();
        } catch (ExecutionException ex) {
            throw new IllegalStateException("sending the backlog of " + name + " failed", ex.getCause());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        var drainedMillis = timeline.drainedAtMillis(backlog.size()).orElseThrow();
        progress.phase(name + ": results and invariants", 0);
        var results = ResultsScan.read(
                target.bootstrapServers(),
                resultsFrom,
                watch.endOffsets(Topics.CHECKOUT_RESULTS),
                backlog,
                sent.sentAtMillis());
        var invariants = RunInvariants.check(database.dataSource(), backlog.initialStock());
        var last = timeline.samples().getLast();
        var perPartition = new ArrayList<Long>();
        for (var partition : start.keySet()) {
            perPartition.add(last.end().getOrDefault(partition, 0L) - start.get(partition));
        }
        return new ScaleCell(
                partitions,
                workers,
                keys.label(),
                backlog.size(),
                backlog.products().size(),
                Math.round(sent.perSecond()),
                drainedMillis / 1000.0,
                Math.round(backlog.size() * 10000.0 / drainedMillis) / 10.0,
                results.endToEnd() != null ? results.endToEnd() : new Latency(0, 0, 0, 0, 0, 0, 0, 0, 0),
                perPartition,
                lagPoints(timeline),
                results.duplicates(),
                resources,
                invariants);
    }

    private static List<ScaleCell.LagPoint> lagPoints(LagTimeline timeline) {
        var points = new ArrayList<ScaleCell.LagPoint>();
        for (var sample : timeline.samples()) {
            var lags = new ArrayList<Long>();
            for (var partition : timeline.start().keySet()) {
                lags.add(timeline.lag(sample, partition));
            }
            points.add(new ScaleCell.LagPoint(sample.atMillis() / 1000.0, lags));
        }
        return points;
    }

    /** As {@link ScaleCell#label()}: the progress line's cell and the phases in it. */
    private static String cellName(int partitions, int workers, KeyDistribution keys) {
        return "P=" + partitions + " W=" + workers + " " + keys.label();
    }
}
