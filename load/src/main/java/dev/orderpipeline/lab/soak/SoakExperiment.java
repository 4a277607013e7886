package dev.orderpipeline.lab.soak;

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
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Runs a soak: per strategy and rate, a fresh hot product and one order per arrival (prepared, not timed), then
 * checkouts started on an {@link OpenModelSchedule}, at most {@code maxInFlight} at once, arrivals beyond that
 * dropped and counted rather than queued in the lab.
 */
public final class SoakExperiment {

    private static final BigDecimal PRICE = new BigDecimal("10.00");
    private static final Duration LEAD = Duration.ofMillis(200);
    private static final Duration RESULTS_GRACE = Duration.ofSeconds(10);
    /** The share of the target rate a run must achieve to count as keeping up. */
    static final double KEEPING_UP = 0.95;

    private final Target target;
    private final SoakSettings settings;
    private final Progress progress;
    private final @Nullable ResultsListener results;
    private final Duration drainTimeout;

    public SoakExperiment(
            Target target,
            SoakSettings settings,
            Progress progress,
            @Nullable ResultsListener results,
            Duration requestTimeout) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
        this.results = results;
        this.drainTimeout = requestTimeout.plusSeconds(5);
    }

    /** The runs and the strategies the API does not offer. */
    public record Outcome(List<SoakRun> runs, List<String> skipped) {}

    public Outcome run() {
        var runs = new ArrayList<SoakRun>();
        var skipped = new ArrayList<String>();
        for (var strategy : settings.strategies()) {
            if (!target.apis().getFirst().supportsStrategy(strategy)) {
                progress.note("Skipping " + strategy + ": order-api does not know it (400 unknown-strategy)");
                skipped.add(strategy);
                continue;
            }
            for (var rate : settings.rates()) {
                var run = runOne(strategy, rate);
                progress.note(String.format(
                        Locale.ROOT,
                        "%s: achieved %.1f/s, p99 %.1f ms, %d errors, %d dropped%s",
                        run.label(),
                        run.achievedRate(),
                        run.latency().p99Ms(),
                        run.errors(),
                        run.dropped(),
                        run.saturated() ? "  SATURATED: " + String.join("; ", run.saturationReasons()) : ""));
                runs.add(run);
            }
        }
        return new Outcome(runs, skipped);
    }

    private SoakRun runOne(String strategy, int rate) {
        var label = strategy + " @ " + rate + "/s";
        var schedule = new OpenModelSchedule(rate, settings.duration());
        var arrivals = schedule.arrivals();
        var apis = target.apis();
        var stock = settings.stock() != null ? settings.stock() : arrivals;
        var productId = apis.getFirst().createProduct("lab soak " + label, stock, PRICE);
        var tag = UUID.randomUUID().toString().substring(0, 8);
        var users = new ArrayList<String>();
        for (var index = 0; index < arrivals; index++) {
            users.add("soak-" + tag + "-" + index);
        }
        progress.phase(label + " prepare", arrivals);
        var orders = Orders.create(apis, productId, users, 1, progress);

        var asynchronous = Strategies.isAsynchronous(strategy);
        var listener = asynchronous ? results : null;
        if (listener != null) {
            listener.track(orders);
        }
        var durationSeconds = settings.duration().toNanos() / 1e9;
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
        var sampler = ResourceSampler.start(target.processes(), target.database(), ResourceSampler.DEFAULT_INTERVAL);
        var start = System.nanoTime() + LEAD.toNanos();
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
            progress.phase(label + " draining", 0);
            awaitDrained(inFlight);
        }

        Latency finalLatency = null;
        if (listener != null) {
            var accepted = statuses.snapshot().getOrDefault("202", 0L);
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
                }
            }
            finalLatency = toOutcome.summary();
        }
        var resources = sampler.stop();

        var window = Math.max(durationSeconds, (lastAnswer.get() - start) / 1e9);
        var achieved = succeeded.get() / window;
        var summary = latency.summary();
        var reasons = saturationReasons(rate, achieved, summary, dropped.get());
        return new SoakRun(
                label,
                strategy,
                rate,
                durationSeconds,
                productId,
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
                resources);
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
