package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.measure.StatusCounts;
import dev.orderpipeline.lab.pipeline.Orders;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.pipeline.Target;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Runs a soak: per strategy, key distribution and rate, fresh products and one order per arrival (prepared, not
 * timed: set-based in the database when the lab has it, else through the API), then
 * checkouts started on an {@link OpenModelSchedule}, at most {@code maxInFlight} at once, arrivals beyond that
 * dropped and counted rather than queued in the lab.
 */
public final class SoakExperiment {

    private static final BigDecimal PRICE = new BigDecimal("10.00");
    private static final Duration LEAD = Duration.ofMillis(200);
    private static final Duration RESULTS_GRACE = Duration.ofSeconds(10);
    /** How long the lab waits for every order of a run to be final before it reads the invariants. */
    private static final Duration FINAL_TIMEOUT = Duration.ofSeconds(60);
    /** The share of the target rate a run must achieve to count as keeping up. */
    static final double KEEPING_UP = 0.95;

    private final Target target;
    private final SoakSettings settings;
    private final Progress progress;
    private final @Nullable ResultsListener results;
    private final Duration drainTimeout;
    private final String workerGroup;

    /** @param workerGroup the workers' consumer group, whose lag kafka runs follow */
    public SoakExperiment(
            Target target,
            SoakSettings settings,
            Progress progress,
            @Nullable ResultsListener results,
            Duration requestTimeout,
            String workerGroup) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
        this.results = results;
        this.drainTimeout = requestTimeout.plusSeconds(5);
        this.workerGroup = workerGroup;
    }

    /** The runs and the strategies the API does not offer. */
    public record Outcome(List<SoakRun> runs, List<String> skipped) {}

    /**
     * Every strategy warmed up first, then per key distribution and rate the strategies one after the other: runs
     * to be compared are next to each other in time, so a change in what else the machine does spreads over all
     * strategies instead of falling on one.
     */
    public Outcome run() {
        var runs = new ArrayList<SoakRun>();
        var skipped = new ArrayList<String>();
        var available = new ArrayList<String>();
        for (var strategy : settings.strategies()) {
            if (target.apis().getFirst().supportsStrategy(strategy)) {
                available.add(strategy);
            } else {
                progress.note("Skipping " + strategy + ": order-api does not know it (400 unknown-strategy)");
                skipped.add(strategy);
            }
        }
        if (settings.warmup().isPositive()) {
            for (var strategy : available) {
                var warm = runOne(
                        strategy,
                        settings.distributions().getFirst(),
                        settings.rates().getFirst(),
                        settings.warmup());
                progress.note(String.format(
                        Locale.ROOT, "%s warm-up: %d checkouts (not reported)", warm.label(), warm.scheduled()));
            }
        }
        var runCount = settings.distributions().size() * settings.rates().size() * available.size();
        for (var keys : settings.distributions()) {
            for (var rate : settings.rates()) {
                for (var strategy : available) {
                    progress.item("run", runs.size() + 1, runCount, "");
                    var run = runOne(strategy, keys, rate, settings.duration());
                    progress.note(String.format(
                            Locale.ROOT,
                            "%s: achieved %.1f/s, p99 %.1f ms%s, %d errors, %d dropped%s",
                            run.label(),
                            run.achievedRate(),
                            run.latency().p99Ms(),
                            run.finalLatency() == null
                                    ? ""
                                    : String.format(
                                            Locale.ROOT,
                                            ", decision p99 %.1f ms",
                                            run.finalLatency().p99Ms()),
                            run.errors(),
                            run.dropped(),
                            run.saturated() ? "  SATURATED: " + String.join("; ", run.saturationReasons()) : ""));
                    runs.add(run);
                }
            }
        }
        return new Outcome(runs, skipped);
    }

    /** The products and orders of a run, prepared before its timed part. */
    private record Prepared(
            UUID productId, int products, Map<UUID, Integer> initialStock, List<UUID> orders, List<String> users) {}

    private Prepared prepare(String label, KeyDistribution keys, int arrivals) {
        var apis = target.apis();
        var database = target.database();
        progress.phase(label + " prepare", arrivals);
        if (database != null) {
            var tag = "soak-" + UUID.randomUUID().toString().substring(0, 8);
            var fixed = settings.stock();
            var backlog = new BacklogWriter(database.dataSource())
                    .create(tag, keys, arrivals, orders -> fixed != null ? fixed : orders, tag.hashCode(), progress);
            var orders = new ArrayList<UUID>(arrivals);
            var users = new ArrayList<String>(arrivals);
            for (var index = 0; index < arrivals; index++) {
                orders.add(backlog.orderId(index));
                users.add(backlog.userId(index));
            }
            return new Prepared(
                    backlog.products().getFirst(), backlog.products().size(), backlog.initialStock(), orders, users);
        }
        if (keys.products() != 1) {
            throw new IllegalArgumentException(
                    "spread keys (" + keys.label() + ") need the database: give --database-url with --api-url");
        }
        var stock = settings.stock() != null ? settings.stock() : arrivals;
        var productId = apis.getFirst().createProduct("lab soak " + label, stock, PRICE);
        var tag = UUID.randomUUID().toString().substring(0, 8);
        var users = new ArrayList<String>();
        for (var index = 0; index < arrivals; index++) {
            users.add("soak-" + tag + "-" + index);
        }
        var orders = Orders.create(apis, productId, users, 1, progress);
        return new Prepared(productId, 1, Map.of(productId, stock), orders, users);
    }

    private SoakRun runOne(String strategy, KeyDistribution keys, int rate, Duration duration) {
        var label = strategy + (keys.products() == 1 ? "" : " " + keys.label()) + " @ " + rate + "/s";
        var schedule = new OpenModelSchedule(rate, duration);
        var arrivals = schedule.arrivals();
        var apis = target.apis();
        var prepared = prepare(label, keys, arrivals);
        var orders = prepared.orders();
        var users = prepared.users();

        var asynchronous = Strategies.isAsynchronous(strategy);
        var listener = asynchronous ? results : null;
        if (listener != null) {
            listener.track(orders);
        }
        var durationSeconds = duration.toNanos() / 1e9;
        var timeline = new Timeline((int) Math.ceil(durationSeconds) + (int) drainTimeout.toSeconds() + 1);
        var latency = new LatencyRecorder();
        var statuses = new StatusCounts();
        var inFlight = new Semaphore(settings.maxInFlight());
        var started = new AtomicLong();
        var succeeded = new AtomicLong();
        var errors = new AtomicLong();
        var dropped = new AtomicLong();
        var lastAnswer = new AtomicLong();

        progress.phase(label + " load", arrivals);
        var watched = new ArrayList<>(target.processes());
        watched.add(new ResourceSampler.Watched("lab", ProcessHandle.current().pid()));
        var sampler = ResourceSampler.start(watched, target.database(), ResourceSampler.DEFAULT_INTERVAL);
        var start = System.nanoTime() + LEAD.toNanos();
        var lag = asynchronous ? LagRecorder.start(target.bootstrapServers(), workerGroup, start) : null;
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var index = 0; index < arrivals; index++) {
                var due = start + schedule.offsetNanos(index);
                parkUntil(due);
                var second = schedule.second(index);
                if (!inFlight.tryAcquire()) {
                    dropped.incrementAndGet();
                    timeline.dropped(second);
                    progress.advance();
                    continue;
                }
                started.incrementAndGet();
                timeline.started(second);
                var api = apis.get(index % apis.size());
                var orderId = orders.get(index);
                var user = users.get(index);
                executor.execute(() -> {
                    try {
                        var status = api.checkout(orderId, user, strategy, settings.delayMillis());
                        var end = System.nanoTime();
                        var success = status.startsWith("2");
                        latency.recordNanos(end - due);
                        statuses.add(status);
                        (success ? succeeded : errors).incrementAndGet();
                        timeline.answered(end - start, end - due, success);
                        lastAnswer.accumulateAndGet(end, Math::max);
                    } finally {
                        inFlight.release();
                        progress.advance();
                    }
                });
            }
            if (lag != null) {
                lag.lastArrival();
            }
            progress.phase(label + " draining", 0);
            awaitDrained(inFlight);
        }

        Latency finalLatency = null;
        SoakRun.KafkaFigures kafka = null;
        var accepted = statuses.snapshot().getOrDefault("202", 0L);
        if (listener != null) {
            var deadline = System.nanoTime() + RESULTS_GRACE.toNanos();
            while (listener.received() < accepted && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            var received = listener.receivedAt();
            var toOutcome = new LatencyRecorder();
            for (var index = 0; index < arrivals; index++) {
                var at = received.get(orders.get(index));
                if (at != null) {
                    toOutcome.recordNanos(at - (start + schedule.offsetNanos(index)));
                    timeline.decided(at - start);
                }
            }
            finalLatency = toOutcome.summary();
            if (lag != null) {
                kafka = lag.stop(accepted, received.size());
            }
        } else if (lag != null) {
            lag.stop(accepted, 0);
        }
        var resources = sampler.stop();
        var invariants = invariants(prepared);

        var window = Math.max(durationSeconds, (lastAnswer.get() - start) / 1e9);
        var achieved = succeeded.get() / window;
        var summary = latency.summary();
        var reasons = saturationReasons(rate, achieved, summary, dropped.get());
        if (finalLatency != null && finalLatency.p99Ms() > settings.p99Limit().toMillis()) {
            reasons.add(String.format(
                    Locale.ROOT,
                    "decision p99 %.0f ms over %d ms",
                    finalLatency.p99Ms(),
                    settings.p99Limit().toMillis()));
        }
        if (kafka != null && kafka.decided() < kafka.accepted()) {
            reasons.add((kafka.accepted() - kafka.decided()) + " accepted checkouts without a decision within "
                    + RESULTS_GRACE.toSeconds() + " s");
        }
        return new SoakRun(
                label,
                strategy,
                keys.label(),
                prepared.products(),
                rate,
                durationSeconds,
                prepared.productId(),
                arrivals,
                started.get(),
                succeeded.get(),
                errors.get(),
                dropped.get(),
                Math.round(achieved * 10) / 10.0,
                summary,
                finalLatency,
                statuses.snapshot(),
                timeline.seconds(),
                !reasons.isEmpty(),
                reasons,
                resources,
                kafka,
                invariants);
    }

    /** Once every order of the run is final (or a while has passed), the database's verdict on its products. */
    private RunInvariants.@Nullable Summary invariants(Prepared prepared) {
        var database = target.database();
        if (database == null) {
            return null;
        }
        var deadline = System.nanoTime() + FINAL_TIMEOUT.toNanos();
        while (database.ordersNotFinal(prepared.initialStock().keySet()) > 0 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
        return RunInvariants.check(database.dataSource(), prepared.initialStock());
    }

    /**
     * Why a run did not keep up: fewer successful answers per second than the target (errors count as not kept
     * up), p99 over the limit, or arrivals dropped at the in-flight bound.
     */
    List<String> saturationReasons(int rate, double achieved, Latency latency, long dropped) {
        var reasons = new ArrayList<String>();
        if (achieved < rate * KEEPING_UP) {
            reasons.add(String.format(Locale.ROOT, "achieved %.1f/s of %d/s", achieved, rate));
        }
        if (latency.p99Ms() > settings.p99Limit().toMillis()) {
            reasons.add(String.format(
                    Locale.ROOT,
                    "p99 %.0f ms over %d ms",
                    latency.p99Ms(),
                    settings.p99Limit().toMillis()));
        }
        if (dropped > 0) {
            reasons.add(dropped + " arrivals dropped at " + settings.maxInFlight() + " in flight");
        }
        return reasons;
    }

    private void awaitDrained(Semaphore inFlight) {
        try {
            if (!inFlight.tryAcquire(settings.maxInFlight(), drainTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                progress.note("Requests still in flight after " + drainTimeout.toSeconds() + " s");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining", ex);
        }
    }

    /** Sleeps until a {@link System#nanoTime()} instant (parking is accurate to well under a millisecond). */
    private static void parkUntil(long due) {
        for (var remaining = due - System.nanoTime(); remaining > 0; remaining = due - System.nanoTime()) {
            LockSupport.parkNanos(remaining);
        }
    }
}
