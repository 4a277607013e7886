package dev.orderpipeline.lab.drain;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.CommandProducer;
import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.backlog.LagFollower;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.backlog.WorkerFleet;
import dev.orderpipeline.lab.backlog.WorkerSteps;
import dev.orderpipeline.lab.ceiling.Ceiling;
import dev.orderpipeline.lab.ceiling.CeilingRun;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a drain on a stack started without workers: measures the ceiling on the stack's database, prepares the
 * backlog, fills the command topic with no worker running, starts the workers and follows the group until its lag is
 * zero, reads the results back, checks the invariants, stops the workers, and measures the ceiling again. The two
 * ceilings bracket the drain: on a machine shared with other work the rate a database sustains changes within
 * minutes, and a ratio against one of them alone could flatter or wrong the worker.
 */
public final class DrainExperiment {

    /** Often enough for the CPU and RSS peaks, rare enough to cost the machine little during a long drain. */
    static final Duration SAMPLING = Duration.ofMillis(500);

    private final StackTarget target;
    private final DrainSettings settings;
    private final Progress progress;

    public DrainExperiment(StackTarget target, DrainSettings settings, Progress progress) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
    }

    public DrainRun run() {
        var database = target.database();
        var stack = target.stack();
        var tag = "drain-" + UUID.randomUUID().toString().substring(0, 8);
        var group = "lab-" + tag;
        try (var watch = new GroupWatch(target.bootstrapServers());
                var fleet = new WorkerFleet(target)) {
            var ceilingBefore = ceiling("before the drain");
            var preparing = System.nanoTime();
            var backlog = new BacklogWriter(database.dataSource())
                    .create(
                            tag,
                            settings.distribution(),
                            settings.commands(),
                            orders -> (int) Math.min(Integer.MAX_VALUE, 2L * orders),
                            tag.hashCode(),
                            progress);
            var prepareSeconds = (System.nanoTime() - preparing) / 1e9;
            var resultsFrom = watch.endOffsets(Topics.CHECKOUT_RESULTS);
            var start = watch.endOffsets(Topics.CHECKOUT_COMMANDS);
            progress.phase("fill " + Topics.CHECKOUT_COMMANDS, backlog.size());
            var sent = CommandProducer.send(target.bootstrapServers(), backlog, false, progress);
            progress.note(String.format(
                    Locale.ROOT,
                    "Backlog: %d commands on %d products in %.1f s (%.0f/s); no worker running",
                    sent.records(),
                    backlog.products().size(),
                    sent.seconds(),
                    sent.perSecond()));

            var before = ServerCounters.read(database.dataSource());
            var arguments = List.of("--orderpipeline.worker.group-id=" + group);
            var clockStart = System.nanoTime();
            var workers = new ArrayList<AppProcess>();
            for (var i = 0; i < settings.workers(); i++) {
                workers.add(fleet.start(arguments));
            }
            var readyAt = new AtomicLong();
            var readiness = Thread.ofVirtual().start(() -> {
                try {
                    fleet.awaitReady(workers.getFirst());
                    readyAt.set(System.nanoTime());
                } catch (IllegalStateException ex) {
                    // a worker that never got ready fails the drain below, with its log
                    progress.note("The worker did not report ready: " + ex.getMessage());
                }
            });
            var watched = new ArrayList<>(target.processes());
            watched.addAll(fleet.watched());
            watched.add(
                    new ResourceSampler.Watched("lab", ProcessHandle.current().pid()));
            var sampler = ResourceSampler.start(watched, database, SAMPLING);
            progress.phase("drain with " + settings.workers() + " worker(s)", backlog.size());
            var follower = new LagFollower(watch, group, settings.lagInterval(), true, false);
            var timeline = follower.follow(start, backlog.size(), clockStart, settings.timeout(), progress, (s, c) -> {
                for (var worker : workers) {
                    if (!worker.isAlive()) {
                        throw new IllegalStateException(worker.name() + " exited during the drain; see its log:"
                                + System.lineSeparator() + worker.process().logTail(30));
                    }
                }
            });
            var resources = sampler.stop();
            join(readiness);
            var drainedMillis = timeline.drainedAtMillis(backlog.size()).orElseThrow();

            progress.phase("reading results and invariants", 0);
            var results = ResultsScan.read(
                    target.bootstrapServers(),
                    resultsFrom,
                    watch.endOffsets(Topics.CHECKOUT_RESULTS),
                    backlog,
                    new long[0]);
            var invariants = RunInvariants.check(database.dataSource(), backlog.initialStock());
            var after = ServerCounters.read(database.dataSource());
            var steps = WorkerSteps.none();
            for (var worker : workers) {
                steps = steps.plus(fleet.steps(worker).orElse(WorkerSteps.none()));
            }
            fleet.stopAll();
            progress.note(String.format(
                    Locale.ROOT,
                    "Drained %d commands in %.1f s from the worker's start (%.0f/s); deciding %.1f s (%.0f/s);"
                            + " invariants %s",
                    backlog.size(),
                    drainedMillis / 1000.0,
                    backlog.size() * 1000.0 / drainedMillis,
                    (results.lastAtMillis() - results.firstAtMillis()) / 1000.0,
                    results.decidedPerSecond(),
                    invariants.holds() ? "hold" : "VIOLATED: " + invariants.violations()));

            var ceilingAfter = ceiling("after the drain");
            var decidingSeconds = (results.lastAtMillis() - results.firstAtMillis()) / 1000.0;
            return new DrainRun(
                    settings.keys(),
                    backlog.size(),
                    backlog.products().size(),
                    start.size(),
                    round(prepareSeconds, 2),
                    round(sent.perSecond(), 0),
                    settings.workers(),
                    stack.config().workerJvmOptions(),
                    readyAt.get() > 0 ? round((readyAt.get() - clockStart) / 1e9, 2) : 0,
                    round(drainedMillis / 1000.0, 3),
                    round(backlog.size() * 1000.0 / drainedMillis, 1),
                    round(decidingSeconds, 3),
                    round(results.decidedPerSecond(), 1),
                    timeline.curve(),
                    results,
                    resources,
                    before != null && after != null ? after.since(before) : null,
                    ServerCounters.settings(database.dataSource()),
                    invariants,
                    steps,
                    ceilingBefore,
                    ceilingAfter);
        }
    }

    /** The ceiling on the stack's database, with no worker running; none when not asked for. */
    private List<CeilingRun> ceiling(String when) {
        var ceiling = settings.ceiling();
        if (ceiling == null) {
            return List.of();
        }
        progress.note("Ceiling " + when + ":");
        var dataSource = target.database().dataSource();
        Ceiling.migrate(dataSource);
        return new Ceiling(dataSource, ceiling, progress).run();
    }

    private static void join(Thread thread) {
        try {
            thread.join(Duration.ofMinutes(1));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private static double round(double value, int decimals) {
        var scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
