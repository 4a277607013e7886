package dev.orderpipeline.lab.compare;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonFormat;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One strategy's run: a row of every compare table.
 *
 * @param label the strategy, with {@code #n} when it ran more than once
 * @param productIds the run's fresh products (reports of the orders workload written before carts had one {@code
 *     productId})
 * @param invariants the invariants module's verdict on the run's products, read from the database
 * @param elapsedSeconds from the release of the checkouts to the last order becoming final
 * @param decidedPerSecond orders decided (completed or rejected) per second of that time
 * @param finalLatency time to the final outcome: the answer for a synchronous strategy, the result on {@code
 *     checkout.results} for kafka and the saga; {@code null} when the lab could not read the results
 * @param resultsMissing kafka and the saga: accepted checkouts whose result did not reach the lab; {@code null}
 *     otherwise
 * @param cost per decided checkout; {@code null} when none was decided or the report predates it
 * @param carts what only the carts workload measures; {@code null} for orders
 */
public record StrategyRun(
        String label,
        String strategy,

        @JsonAlias("productId") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        List<UUID> productIds,

        RunVerdict invariants,
        double elapsedSeconds,
        double decidedPerSecond,
        Latency checkoutLatency,
        @Nullable Latency finalLatency,
        @Nullable Long resultsMissing,
        boolean finalTimedOut,
        Map<String, Long> httpStatuses,
        ResourceUsage resources,
        @Nullable CheckoutCost cost,
        @Nullable CartFigures carts) {

    public StrategyRun {
        productIds = List.copyOf(productIds);
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
    }

    /**
     * The locks a carts run fought over.
     *
     * @param abortedTransactions transactions order-api's lab counted as aborted and retried (deadlock victims);
     *     {@code null} when it does not count them (the saga)
     * @param deadlocks deadlocks PostgreSQL broke in the run's database while it ran
     */
    public record CartFigures(@Nullable Long abortedTransactions, long deadlocks) {}
}
