package dev.orderpipeline.lab.drain;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.backlog.CommandProducer;
import dev.orderpipeline.lab.backlog.LagFollower;
import dev.orderpipeline.lab.backlog.StackSession;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Cells;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Runs a drain on a stack started without workers: prepares the backlog, fills the command topic with no worker
 * running, measures the ceiling on the stack's database as the drain finds it, starts the workers and follows the
 * group until its lag is zero, reads the results back, checks the invariants, stops the workers, and measures the
 * ceiling again. The two ceilings bracket the drain: on a machine shared with other work the rate a database sustains
 * changes within minutes, and a ratio against one of them alone could flatter or wrong the worker.
 */
public record DrainExperiment(StackTarget target, DrainSettings settings, Progress progress) {

    public DrainRun run() {
        var tag = "drain-" + UUID.randomUUID().toString().substring(0, 8);
        return drain(tag, "lab-" + tag, "; no worker running", true);
    }

    /**
     * The drain on a stack whose workers run already in {@code group} (the soak's capacity probe): the backlog is sent
     * while they decide it, so only the figures between the first result and the last ({@link
     * DrainRun#perSecondDeciding}) mean a rate, one partition's when the keys are one product. Its settings have no
     * ceiling.
     */
    public DrainRun alongside(String group) {
        return drain(
                "drain-probe-" + UUID.randomUUID().toString().substring(0, 8),
                group,
                "; the stack's workers deciding",
                false);
    }

    /**
     * Prepares the backlog's orders and sends its commands with no worker deciding them, measures the ceiling, starts
     * the workers (unless they run), follows the group until the backlog is drained, and reads what it did.
     */
    private DrainRun drain(String tag, String group, String workersNote, boolean startWorkers) {
        try (var session = new StackSession(target, progress)) {
            var backlog = session.backlog(tag, settings.keys(), settings.commands());
            var from = session.mark();
            progress.phase("fill " + Topics.CHECKOUT_COMMANDS, backlog.size());
            var sent = CommandProducer.send(target.bootstrapServers(), backlog, 0, progress);
            progress.note(String.format(
                    Locale.ROOT,
                    "Backlog: %d commands on %d products in %.1f s (%.0f/s)%s",
                    sent.records(),
                    backlog.products().size(),
                    sent.seconds(),
                    sent.perSecond(),
                    workersNote));
            // on the database the drain starts from: its million orders in the tables and their indexes
            var ceilingBefore = ceiling("before the drain");
            var clockStart = System.nanoTime();
            var workers = IntStream.range(0, startWorkers ? settings.workers() : 0)
                    .mapToObj(i -> session.start(List.of("--orderpipeline.worker.group-id=" + group)))
                    .toList();
            var ready = workers.isEmpty()
                    ? CompletableFuture.completedFuture(0.0)
                    : CompletableFuture.supplyAsync(
                            () -> readySeconds(session, workers.getFirst(), clockStart), Thread.ofVirtual()::start);
            var sampler = session.sample();
            progress.phase("drain with " + settings.workers() + " worker(s)", backlog.size());
            var timeline = new LagFollower(session.watch(), group, settings.lagInterval(), true, false)
                    .follow(
                            from.commands(),
                            backlog.size(),
                            clockStart,
                            settings.timeout(),
                            progress,
                            (sample, consumed) -> StackSession.requireAlive(workers, "the drain"));
            var resources = sampler.stop();
            var startToReady = ready.completeOnTimeout(0.0, 1, TimeUnit.MINUTES).join();
            progress.phase("reading results and invariants", 0);
            var results = session.results(from, backlog, new long[0]);
            var invariants = session.invariants(backlog);
            session.stopAll();
            var perSecondFromStart = backlog.size()
                    * 1000.0
                    / timeline.drainedAtMillis(backlog.size()).orElseThrow();
            var decidingSeconds = (results.lastAtMillis() - results.firstAtMillis()) / 1000.0;
            progress.note(String.format(
                    Locale.ROOT,
                    "Drained %d commands at %.0f/s from the worker's start, %.0f/s while deciding%s",
                    backlog.size(),
                    perSecondFromStart,
                    results.decidedPerSecond(),
                    Cells.violatedNote(invariants)));
            return new DrainRun(
                    backlog.size(),
                    target.stack().config().asReported(target.stack().config().workerJvmOptions()),
                    startToReady,
                    round(perSecondFromStart, 1),
                    round(decidingSeconds, 3),
                    round(results.decidedPerSecond(), 1),
                    results,
                    resources,
                    invariants,
                    ceilingBefore,
                    ceiling("after the drain"));
        }
    }

    /** Seconds from the clock's start until the worker reported ready; 0 if it never does (that fails the drain). */
    private double readySeconds(StackSession session, AppProcess worker, long clockStart) {
        try {
            session.awaitReady(worker);
            return round((System.nanoTime() - clockStart) / 1e9, 2);
        } catch (IllegalStateException ex) {
            progress.note("The worker did not report ready: " + ex.getMessage());
            return 0;
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

    static double round(double value, int decimals) {
        var scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
