package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One strategy's run: a row of every compare table.
 *
 * @param label the strategy, with {@code #n} when it ran more than once
 * @param elapsedSeconds from the release of the checkouts to the last order becoming final
 * @param decidedPerSecond orders decided (completed or rejected) per second of that time
 * @param finalLatency time to the final outcome: the answer for a synchronous strategy, the result on {@code
 *     checkout.results} for kafka; {@code null} when the lab could not read the results
 * @param resultsMissing kafka: accepted checkouts whose result did not reach the lab; {@code null} otherwise
 * @param cost per decided checkout; {@code null} when none was decided or the report predates it
 */
public record StrategyRun(
        String label,
        String strategy,
        int repetition,
        UUID productId,
        InvariantColumns invariants,
        double elapsedSeconds,
        double decidedPerSecond,
        Latency checkoutLatency,
        @Nullable Latency finalLatency,
        @Nullable Long resultsMissing,
        boolean finalTimedOut,
        Map<String, Long> httpStatuses,
        ResourceUsage resources,
        @Nullable CheckoutCost cost) {

    public StrategyRun {
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
    }
}
