package dev.orderpipeline.lab.compare;

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
 * @param strategy the strategy name
 * @param repetition 1 for the first run of the strategy
 * @param productId the fresh product of the run
 * @param invariants the database's verdict
 * @param elapsedSeconds from the release of the checkouts to the last order becoming final
 * @param decidedPerSecond orders decided (completed or rejected) per second of that time
 * @param checkoutLatency time to the HTTP answer
 * @param finalLatency time to the final outcome: the answer for a synchronous strategy, the result on {@code
 *     checkout.results} for kafka; {@code null} when the lab could not read the results
 * @param resultsMissing kafka: accepted checkouts whose result did not reach the lab; {@code null} otherwise
 * @param finalTimedOut whether orders were still open when the lab stopped waiting
 * @param httpStatuses answers by status
 * @param resources what the processes used while the run went on
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
        ResourceUsage resources) {

    public StrategyRun {
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
    }
}
