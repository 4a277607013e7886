package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One closed-loop run of a strategy: a row of every throughput table.
 *
 * @param label the strategy, with {@code #n} when there is more than one round
 * @param repetition the round, 1 for the first; 0 for a warm-up
 * @param keys how the run's checkouts spread over products ({@code hot}, {@code uniform:N}...)
 * @param productId the run's product, with one unit per prepared order; {@code null} for spread keys
 * @param orders orders prepared for the run
 * @param seconds the loop, from the start of its clients until the last one stopped
 * @param sent checkouts sent and answered
 * @param checkoutsPerSecond answers per second of the loop
 * @param decidedPerSecond checkouts decided by the time the loop stopped, per second of the loop
 * @param notFinalAtStop sent orders not final yet when the loop stopped: for kafka, the workers' lag
 * @param secondsToFinal from the stop until every answered order was final, to a tenth
 * @param decided sent orders final at the end
 * @param ranOut whether the prepared orders ran out before the duration had passed
 * @param sampledSeconds how long the CPU was sampled: the loop and the wait until every answered order was final
 * @param cost what a decided checkout cost the pipeline; {@code null} when none was decided
 * @param labCpuMs CPU of the lab's own JVM, the load generator, per decided checkout: no part of the cost
 * @param resources what the sampler saw, the lab's own JVM among the processes
 * @param invariants the database's verdict
 */
public record ThroughputRun(
        String label,
        String strategy,
        int repetition,
        String keys,
        @Nullable UUID productId,
        int orders,
        double seconds,
        long sent,
        Map<String, Long> httpStatuses,
        double checkoutsPerSecond,
        double decidedPerSecond,
        long notFinalAtStop,
        double secondsToFinal,
        long decided,
        boolean ranOut,
        Latency latency,
        double sampledSeconds,
        @Nullable CheckoutCost cost,
        @Nullable Double labCpuMs,
        ResourceUsage resources,
        RunInvariants.Summary invariants) {

    /** The label of one hot product. */
    static final String HOT = new KeyDistribution.Hot().label();

    public ThroughputRun {
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
    }

    /** What the lab saw after the loop stopped: the orders still open then, how long they took, and the outcome. */
    record Tail(long notFinalAtStop, double secondsToFinal, long decided) {}

    /** The run's figures from what the loop and the sampler recorded. */
    static ThroughputRun of(
            String label,
            String strategy,
            int repetition,
            String keys,
            ClosedLoop.Prepared prepared,
            ClosedLoop.Result loop,
            Tail tail,
            ResourceUsage resources,
            double sampledSeconds,
            RunInvariants.Summary invariants) {
        return new ThroughputRun(
                label,
                strategy,
                repetition,
                keys,
                prepared.initialStock().size() == 1
                        ? prepared.initialStock().keySet().iterator().next()
                        : null,
                prepared.size(),
                round(loop.seconds(), 3),
                loop.sent(),
                loop.statuses(),
                round(loop.sent() / loop.seconds(), 1),
                round((loop.sent() - tail.notFinalAtStop()) / loop.seconds(), 1),
                tail.notFinalAtStop(),
                round(tail.secondsToFinal(), 1),
                tail.decided(),
                loop.ranOut(),
                loop.latency(),
                round(sampledSeconds, 3),
                CheckoutCost.of(resources, tail.decided()),
                labCpuMs(resources, tail.decided()),
                resources,
                invariants);
    }

    private static @Nullable Double labCpuMs(ResourceUsage resources, long decided) {
        return resources.processes().stream()
                .filter(process -> process.kind().equals(ThroughputExperiment.LAB))
                .findFirst()
                .map(ResourceUsage.ProcessUsage::cpuSeconds)
                .filter(seconds -> decided > 0)
                .map(seconds -> round(seconds * 1000 / decided, 3))
                .orElse(null);
    }

    private static double round(double value, int decimals) {
        var scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
