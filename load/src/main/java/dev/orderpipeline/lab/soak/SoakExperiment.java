package dev.orderpipeline.lab.soak;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.Experiment;
import dev.orderpipeline.lab.backlog.Backlog;
import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.load.OpenLoad;
import dev.orderpipeline.lab.load.OpenModelSchedule;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.measure.StatusCounts;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.ReportHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs a soak: per key distribution and rate (the grid's cells) the strategies interleaved, each run on fresh products
 * and one order per arrival, inserted set-based before the timed part, then checkouts started on an {@link
 * OpenModelSchedule}, at most {@code maxInFlight} at once, arrivals beyond that dropped and counted, not queued.
 *
 * @param requestTimeout the API client's: requests still in flight a little after it are given up
 * @param drainProbe the capacity model's drain probe, in checkouts, its probes run after the runs; 0: no model
 */
public record SoakExperiment(
        StackTarget target, SoakSettings settings, Progress progress, Duration requestTimeout, int drainProbe)
        implements Experiment<SoakExperiment.Cell, SoakRun> {

    private static final Duration LEAD = Duration.ofMillis(200);
    /** How long the lab waits for every order of a run to be final before it reads the invariants. */
    private static final Duration FINAL_TIMEOUT = Duration.ofSeconds(60);

    /** The consumer group the stack's workers join, whose lag kafka runs follow and which the drain probe uses. */
    static final String WORKER_GROUP = "checkout-worker";

    /** One cell of the grid: a key distribution at a rate. */
    public record Cell(KeyDistribution keys, int rate) {}

    /** The runs, then the capacity model when its probes are asked for; the header is finished after them. */
    public SoakReport run(Supplier<ReportHeader> header) {
        var skipped = new ArrayList<String>();
        var offered = Strategies.offered(
                target.apis().getFirst(), settings.strategies(), Function.identity(), progress, skipped::add);
        var runs = Experiment.run(this, offered, 1, "run", progress);
        var capacity = drainProbe == 0 ? null : CapacityModel.measure(target, WORKER_GROUP, drainProbe, runs, progress);
        return new SoakReport(header.get(), settings, runs, skipped, capacity);
    }

    @Override
    public List<Cell> cells() {
        return settings.keys().stream()
                .flatMap(keys -> settings.rates().stream().map(rate -> new Cell(keys, rate)))
                .toList();
    }

    @Override
    public String label(String strategy, Cell cell, int repetition) {
        return strategy + (cell.keys().products() == 1 ? "" : " " + cell.keys().label()) + " @ " + cell.rate() + "/s";
    }

    /** A run of the strategy at the first cell, as long as the warm-up. */
    @Override
    public void warmUp(String strategy, Cell cell) {
        if (settings.warmup().isPositive()) {
            var warm = run(strategy, cell, settings.warmup(), label(strategy, cell, 0) + " warm-up");
            progress.note(
                    String.format(Locale.ROOT, "%s: %d checkouts (not reported)", warm.label(), warm.scheduled()));
        }
    }

    @Override
    public SoakRun run(String strategy, Cell cell, int repetition, String label) {
        return run(strategy, cell, settings.duration(), label);
    }

    @Override
    public String describe(SoakRun run) {
        return String.format(
                Locale.ROOT,
                "%s: achieved %.1f/s, p99 %.1f ms, decision p99 %s, %d errors, %d dropped%s",
                run.label(),
                run.achievedRate(),
                run.latency().p99Ms(),
                Cells.duration(run.finalLatency(), Latency::p99Ms),
                run.errors(),
                run.dropped(),
                run.saturated() ? "  SATURATED: " + String.join("; ", run.saturationReasons()) : "");
    }

    private SoakRun run(String strategy, Cell cell, Duration duration, String label) {
        var keys = cell.keys();
        var rate = cell.rate();
        var schedule = new OpenModelSchedule(rate, duration);
        progress.phase(label + " prepare", schedule.arrivals());
        var tag = "soak-" + UUID.randomUUID().toString().substring(0, 8);
        var backlog = new BacklogWriter(target.database().dataSource())
                .create(tag, keys, schedule.arrivals(), orders -> orders, progress);
        var asynchronous = Strategies.isAsynchronous(strategy);
        var resultsFrom =
                asynchronous ? ResultsScan.endOffsets(target.bootstrapServers(), Topics.CHECKOUT_RESULTS) : null;
        var durationSeconds = duration.toNanos() / 1e9;

        progress.phase(label + " load", schedule.arrivals());
        var sampler = target.sample(ResourceSampler.DEFAULT_INTERVAL, List.of());
        var start = System.nanoTime() + LEAD.toNanos();
        var lag = asynchronous ? LagRecorder.start(target.bootstrapServers(), WORKER_GROUP, start) : null;
        var arrivals = new SoakArrivals(strategy, backlog);
        var load = drive(label, schedule, arrivals, start, lag);
        var latency = load.latency();
        var sent = load.scheduled() - load.dropped();
        var accepted = arrivals.statuses.snapshot().getOrDefault("202", 0L);
        // each decision timed from its arrival's due time to its result record
        var decisions = resultsFrom == null
                ? null
                : ResultsScan.read(
                        target.bootstrapServers(),
                        resultsFrom,
                        backlog.indexByOrder(),
                        accepted,
                        System.nanoTime() + ResultsScan.GRACE.toNanos(),
                        index -> ResultsScan.epochNanos(start + schedule.offsetNanos(index)));
        var lagFigures = lag == null ? null : lag.stop(accepted, decisions == null ? 0 : decisions.orders());
        var kafka = decisions == null ? null : lagFigures;
        var finalLatency = decisions == null ? null : decisions.endToEnd();
        var resources = sampler.stop();
        // once every order whose checkout was answered 2xx is final (or a while has passed), the database's verdict;
        // the orders of arrivals dropped or refused stay CREATED: nothing is waited for them
        var database = target.database();
        database.awaitFinal(
                () -> database.ordersNotFinal(backlog.initialStock().keySet()),
                backlog.size() - arrivals.succeeded.get(),
                System.nanoTime() + FINAL_TIMEOUT.toNanos(),
                Duration.ofMillis(200));
        var invariants = new InvariantChecker(database.dataSource()).verdict(backlog.initialStock());

        var window = Math.max(durationSeconds, (arrivals.lastAnswer.get() - start) / 1e9);
        var achieved = arrivals.succeeded.get() / window;
        var reasons = settings.saturationReasons(rate, achieved, latency, finalLatency, kafka, load.dropped());
        return new SoakRun(
                label,
                strategy,
                keys.label(),
                rate,
                backlog.products().getFirst(),
                schedule.arrivals(),
                arrivals.succeeded.get(),
                sent - arrivals.succeeded.get(),
                load.dropped(),
                Math.round(achieved * 10) / 10.0,
                latency,
                finalLatency,
                arrivals.statuses.snapshot(),
                !reasons.isEmpty(),
                reasons,
                resources,
                kafka,
                invariants,
                CheckoutCost.of(resources, invariants.completed() + invariants.rejected()));
    }

    /** The arrivals on their schedule, then until those in flight are answered (or a while has passed); closed. */
    private OpenLoad drive(
            String label, OpenModelSchedule schedule, SoakArrivals arrivals, long start, @Nullable LagRecorder lag) {
        var load = new OpenLoad(schedule, schedule.arrivals(), settings.maxInFlight(), arrivals);
        try (load) {
            load.start(start).awaitArrivals();
            if (lag != null) {
                lag.lastArrival();
            }
            progress.phase(label + " draining", 0);
            var drainTimeout = requestTimeout.plusSeconds(5);
            if (!load.awaitIdle(drainTimeout)) {
                progress.note("Requests still in flight after " + drainTimeout.toSeconds() + " s");
            }
        }
        return load;
    }

    /** Checkouts of the prepared orders, counted. */
    private final class SoakArrivals implements OpenLoad.Arrivals {

        private final String strategy;
        private final Backlog backlog;
        private final StatusCounts statuses = new StatusCounts();
        private final AtomicLong succeeded = new AtomicLong();
        private final AtomicLong lastAnswer = new AtomicLong();

        SoakArrivals(String strategy, Backlog backlog) {
            this.strategy = strategy;
            this.backlog = backlog;
        }

        @Override
        public void send(int index, long dueNanos) {
            var apis = target.apis();
            try {
                var status = apis.get(index % apis.size())
                        .checkout(backlog.orderId(index), backlog.userId(index), strategy, null);
                var end = System.nanoTime();
                statuses.add(status);
                if (status.startsWith("2")) {
                    succeeded.incrementAndGet();
                }
                lastAnswer.accumulateAndGet(end, Math::max);
            } finally {
                progress.advance();
            }
        }

        @Override
        public void dropped(int index) {
            progress.advance();
        }
    }
}
