package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.pipeline.Burst;
import dev.orderpipeline.lab.pipeline.Orders;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a compare: per strategy (and repetition) a fresh product, {@code parallel} buyers with an order each
 * (prepared, not timed), all checkouts released at once by a latch and spread round-robin over the API replicas,
 * then a wait until the database has every order final, then the database's verdict.
 */
public final class CompareExperiment implements BurstExperiment.Workload<StrategyRun> {

    private static final Logger log = LoggerFactory.getLogger(CompareExperiment.class);
    private static final BigDecimal PRICE = new BigDecimal("10.00");
    private static final Duration RESULTS_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(50);

    private final StackTarget target;
    private final CompareSettings settings;
    private final Progress progress;
    private final @Nullable ResultsListener results;

    /**
     * @param results the lab's consumer of checkout results, for kafka's time to outcome; {@code null} leaves that
     *     column n/a
     */
    public CompareExperiment(
            StackTarget target, CompareSettings settings, Progress progress, @Nullable ResultsListener results) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
        this.results = results;
    }

    public BurstExperiment.Outcome<StrategyRun> run() {
        return BurstExperiment.run(
                target.apis().getFirst(), settings.strategies(), settings.repetitions(), progress, this);
    }

    /**
     * The same run, as large as asked: as many units as the run has, at most half as many as buyers, so that it both
     * sells and refuses and the refusals' code is as warm as the sales' when the run is a flash sale.
     */
    @Override
    public void warmUp(String strategy) {
        var buyers = Math.min(settings.warmup(), settings.parallel());
        if (buyers > 0) {
            var units = Math.max(1, Math.min(buyers / 2, settings.initialStock()));
            var run = runOne(strategy, 0, strategy + " warm-up", units, buyers);
            progress.note(String.format(Locale.ROOT, "%s: %d checkouts (not reported)", run.label(), buyers));
        }
    }

    @Override
    public StrategyRun run(String strategy, int repetition, String label) {
        return runOne(strategy, repetition, label, settings.initialStock(), settings.parallel());
    }

    @Override
    public String describe(StrategyRun run) {
        return String.format(
                Locale.ROOT,
                "%s: completed %d, stock left %d, drift %d, %.1f s%s",
                run.label(),
                run.invariants().completed(),
                run.invariants().stockLeft(),
                run.invariants().drift(),
                run.elapsedSeconds(),
                BurstExperiment.violated(run.invariants().violations()));
    }

    private StrategyRun runOne(String strategy, int repetition, String label, int initialStock, int parallel) {
        var apis = target.apis();
        var productId = apis.getFirst().createProduct("lab compare " + label, initialStock, PRICE);

        progress.phase(label + " prepare", parallel);
        var users = Orders.buyers(parallel);
        var orders = Orders.create(apis, productId, users, settings.quantity(), progress);
        if (results != null && Strategies.isAsynchronous(strategy)) {
            results.track(orders);
        }
        progress.phase(label + " checkout", parallel);
        var sampler = new AtomicReference<ResourceSampler>();
        var burst = BurstExperiment.release(
                target,
                orders,
                users,
                strategy,
                settings.delayMillis(),
                () -> sampler.set(ResourceSampler.start(
                        target.processesAndLab(), target.database(), ResourceSampler.DEFAULT_INTERVAL)),
                progress);

        progress.phase(label + " waiting for final", parallel);
        var ending = awaitEnd(strategy, productId, orders, burst);
        var resources = sampler.get().stop();

        var invariants =
                InvariantColumns.from(target.database().invariants(productId, initialStock), neverCheckedOut(burst));
        var elapsed = Math.max(ending.at() - burst.releasedAt(), 1) / 1e9;
        var decided = invariants.completed() + invariants.rejected();
        if (ending.timedOut()) {
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
                round(decided / elapsed, 1),
                burst.latency(),
                ending.toFinal(),
                ending.resultsMissing(),
                ending.timedOut(),
                burst.statusCounts(),
                resources,
                CheckoutCost.of(resources, decided));
    }

    /**
     * How a run ended: when, whether orders were still open at the deadline, the time to each final outcome (the
     * answer for a synchronous strategy, the result on checkout.results for kafka) and kafka's results missing.
     */
    private record Ending(
            long at,
            boolean timedOut,
            @Nullable Latency toFinal,
            @Nullable Long resultsMissing) {}

    /** Orders that stay CREATED for good: no answer (a failed request), or sold out at the door. */
    private static long neverCheckedOut(Burst burst) {
        return burst.unanswered() + burst.soldOut();
    }

    private Ending awaitEnd(String strategy, UUID productId, List<UUID> orders, Burst burst) {
        var unanswered = neverCheckedOut(burst);
        var deadline = System.nanoTime() + settings.finalTimeout().toNanos();
        var timedOut = target.database().awaitFinal(List.of(productId), unanswered, deadline, POLL) > unanswered;
        var finalSeen = System.nanoTime();
        if (!Strategies.isAsynchronous(strategy)) {
            return new Ending(burst.lastAnswer(), timedOut, burst.latency(), null);
        }
        if (results == null) {
            return new Ending(Math.max(burst.lastAnswer(), finalSeen), timedOut, null, null);
        }
        var accepted = burst.statusCounts().getOrDefault("202", 0L);
        results.awaitReceived(accepted, Math.max(deadline, System.nanoTime() + RESULTS_GRACE.toNanos()));
        var received = results.receivedAt();
        var toOutcome = new LatencyRecorder();
        var end = burst.lastAnswer();
        for (var index = 0; index < orders.size(); index++) {
            var at = received.get(orders.get(index));
            if (at != null) {
                toOutcome.recordNanos(at - burst.startedAt()[index]);
                end = Math.max(end, at);
            }
        }
        var missing = Math.max(0, accepted - received.size());
        return new Ending(Math.max(end, missing > 0 ? finalSeen : 0), timedOut, toOutcome.summary(), missing);
    }

    private static double round(double value, int decimals) {
        var scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
