package dev.orderpipeline.lab.compare;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a compare: per strategy (and repetition) a fresh product, {@code parallel} buyers with an order each
 * (prepared, not timed), all checkouts released at once by a latch and spread round-robin over the API replicas,
 * then a wait until the database has every order final, then the database's verdict.
 */
public final class CompareExperiment {

    /** The answers after which an order will become final without the lab doing anything more. */
    private static final List<String> ANSWERED = List.of("200", "202", "409");

    private static final Logger log = LoggerFactory.getLogger(CompareExperiment.class);
    private static final BigDecimal PRICE = new BigDecimal("10.00");
    private static final Duration RESULTS_GRACE = Duration.ofSeconds(10);

    private final Target target;
    private final CompareSettings settings;
    private final Progress progress;
    private final @Nullable ResultsListener results;

    /**
     * @param results the lab's consumer of checkout results, for kafka's time to outcome; {@code null} leaves that
     *     column n/a
     */
    public CompareExperiment(
            Target target, CompareSettings settings, Progress progress, @Nullable ResultsListener results) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
        this.results = results;
    }

    /** The runs and the strategies the API does not offer. */
    public record Outcome(List<StrategyRun> runs, List<SkippedStrategy> skipped) {}

    public Outcome run() {
        var skipped = new ArrayList<SkippedStrategy>();
        var available = Strategies.offered(
                target,
                settings.strategies(),
                progress,
                strategy -> skipped.add(new SkippedStrategy(strategy, Strategies.UNKNOWN)));
        var runs = new ArrayList<StrategyRun>();
        // repetitions outermost: a slow drift of the machine spreads over all strategies instead of one
        for (var repetition = 1; repetition <= settings.repetitions(); repetition++) {
            for (var strategy : available) {
                var label = settings.repetitions() == 1 ? strategy : strategy + " #" + repetition;
                progress.item("strategy", runs.size() + 1, settings.repetitions() * available.size(), label);
                if (repetition == 1 && settings.warmup() > 0) {
                    warmUp(strategy);
                }
                var run = runOne(strategy, repetition, label, settings.initialStock(), settings.parallel());
                progress.note(String.format(
                        Locale.ROOT,
                        "%s: completed %d, stock left %d, drift %d, %.1f s%s",
                        label,
                        run.invariants().completed(),
                        run.invariants().stockLeft(),
                        run.invariants().drift(),
                        run.elapsedSeconds(),
                        run.invariants().holds()
                                ? ""
                                : "  VIOLATED: "
                                        + String.join("; ", run.invariants().violations())));
                runs.add(run);
            }
        }
        return new Outcome(runs, skipped);
    }

    /**
     * The same run, smaller and not reported: the first checkouts of a strategy pay for class loading, JIT
     * compilation and new connections, which would otherwise count against whichever strategy runs first.
     */
    private void warmUp(String strategy) {
        var buyers = Math.min(settings.warmup(), settings.parallel());
        var run = runOne(strategy, 0, strategy + " warm-up", Math.max(1, buyers / 2), buyers);
        progress.note(String.format(Locale.ROOT, "%s: %d checkouts (not reported)", run.label(), buyers));
    }

    private StrategyRun runOne(String strategy, int repetition, String label, int initialStock, int parallel) {
        var apis = target.apis();
        var productId = apis.getFirst().createProduct("lab compare " + label, initialStock, PRICE);

        progress.phase(label + " prepare", parallel);
        var tag = UUID.randomUUID().toString().substring(0, 8);
        var users = IntStream.range(0, parallel)
                .mapToObj(buyer -> "lab-" + tag + "-" + buyer)
                .toList();
        var orders = Orders.create(apis, productId, users, settings.quantity(), progress);

        var asynchronous = Strategies.isAsynchronous(strategy);
        var listener = asynchronous ? results : null;
        if (listener != null) {
            listener.track(orders);
        }
        progress.phase(label + " checkout", parallel);
        var released = release(strategy, orders, users);

        var statusCounts = released.statuses().snapshot();
        var unanswered = unanswered(statusCounts);
        progress.phase(label + " waiting for final", parallel);
        var deadline = System.nanoTime() + settings.finalTimeout().toNanos();
        var notFinal = awaitFinal(productId, unanswered, deadline);
        var finalSeen = System.nanoTime();
        var end = Math.max(released.lastAnswer().get(), released.at());
        var finalTimedOut = notFinal > unanswered;

        Latency finalLatency = null;
        Long resultsMissing = null;
        if (!asynchronous) {
            finalLatency = released.latency().summary();
        } else if (listener != null) {
            var accepted = statusCounts.getOrDefault("202", 0L);
            awaitResults(listener, accepted, Math.max(deadline, System.nanoTime() + RESULTS_GRACE.toNanos()));
            var outcomes = outcomes(listener, orders, released.startedAt());
            finalLatency = outcomes.latency();
            resultsMissing = Math.max(0, accepted - outcomes.received());
            end = Math.max(Math.max(end, outcomes.lastAt()), resultsMissing > 0 ? finalSeen : 0);
        } else {
            end = Math.max(end, finalSeen);
        }
        var resources = released.sampler().stop();

        var invariants = InvariantColumns.from(target.invariants(productId, initialStock));
        var elapsed = Math.max(end - released.at(), 1) / 1e9;
        if (finalTimedOut) {
            log.warn(
                    "{}: {} orders still open after {} s; the report counts them as not final",
                    label,
                    invariants.notFinal(),
                    settings.finalTimeout().toSeconds());
        }
        return new StrategyRun(
                label,
                strategy,
                repetition,
                productId,
                invariants,
                round(elapsed, 3),
                round((invariants.completed() + invariants.rejected()) / elapsed, 1),
                released.latency().summary(),
                finalLatency,
                resultsMissing,
                finalTimedOut,
                statusCounts,
                resources);
    }

    /** Checkouts that got no answer the strategy defines (200, 202 or 409): a timeout, a 5xx. */
    private static long unanswered(Map<String, Long> statuses) {
        return statuses.entrySet().stream()
                .filter(entry -> !ANSWERED.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * The checkouts as released: per buyer the time to its answer, the answers, when each started, when the last
     * came, when they were released, and the sampler started just before.
     */
    private record Released(
            LatencyRecorder latency,
            StatusCounts statuses,
            long[] startedAt,
            AtomicLong lastAnswer,
            long at,
            ResourceSampler sampler) {}

    /** Every buyer's checkout on a virtual thread of its own, all waiting on one latch and released together. */
    private Released release(String strategy, List<UUID> orders, List<String> users) {
        var apis = target.apis();
        var parallel = orders.size();
        var latency = new LatencyRecorder();
        var statuses = new StatusCounts();
        var startedAt = new long[parallel];
        var lastAnswer = new AtomicLong();
        var ready = new CountDownLatch(parallel);
        var release = new CountDownLatch(1);
        ResourceSampler sampler;
        long released;
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var buyer = 0; buyer < parallel; buyer++) {
                var index = buyer;
                executor.execute(() -> {
                    ready.countDown();
                    awaitQuietly(release);
                    var api = apis.get(index % apis.size());
                    var start = System.nanoTime();
                    startedAt[index] = start;
                    var status = api.checkout(orders.get(index), users.get(index), strategy, settings.delayMillis());
                    var end = System.nanoTime();
                    latency.recordNanos(end - start);
                    statuses.add(status);
                    lastAnswer.accumulateAndGet(end, Math::max);
                    progress.advance();
                });
            }
            try {
                awaitQuietly(ready);
                sampler =
                        ResourceSampler.start(target.processes(), target.database(), ResourceSampler.DEFAULT_INTERVAL);
                released = System.nanoTime();
            } finally {
                // even when the start failed: buyers waiting on the latch would keep the executor open forever
                release.countDown();
            }
        }
        return new Released(latency, statuses, startedAt, lastAnswer, released, sampler);
    }

    /** Kafka's outcomes as the results listener received them: time from each checkout's start, and the last. */
    private record Outcomes(@Nullable Latency latency, long received, long lastAt) {}

    private static Outcomes outcomes(ResultsListener listener, List<UUID> orders, long[] startedAt) {
        var received = listener.receivedAt();
        var toOutcome = new LatencyRecorder();
        long lastAt = 0;
        for (var index = 0; index < orders.size(); index++) {
            var at = received.get(orders.get(index));
            if (at != null) {
                toOutcome.recordNanos(at - startedAt[index]);
                lastAt = Math.max(lastAt, at);
            }
        }
        return new Outcomes(toOutcome.summary(), received.size(), lastAt);
    }

    /**
     * Polls until no order is open, or only as many as had no answer (a failed request leaves its order CREATED for
     * good), or the deadline. Returns the open orders last seen.
     */
    private long awaitFinal(UUID productId, long unanswered, long deadline) {
        var pause = target.database() != null ? 50 : 500;
        while (true) {
            var open = target.ordersNotFinal(productId);
            if (open <= unanswered || System.nanoTime() - deadline > 0) {
                return open;
            }
            sleep(pause);
        }
    }

    private static void awaitResults(ResultsListener listener, long expected, long deadline) {
        while (listener.received() < expected && System.nanoTime() - deadline < 0) {
            sleep(20);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
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
