package dev.orderpipeline.lab.compare;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One compare: every strategy gets {@code repetitions} runs, each on a fresh product.
 *
 * @param initialStock units of the fresh product (INITIAL_STOCK in the article)
 * @param parallel buyers, each with an order of its own, whose checkouts are released together (PARALLEL)
 * @param quantity units per order
 * @param strategies strategy names, in run order
 * @param repetitions runs per strategy
 * @param delayMillis the check-to-write delay passed as {@code ?delayMs=}, or {@code null} for the API's own
 * @param finalTimeout how long to wait for every order to become final after the checkouts were answered
 * @param warmup checkouts per strategy run before its first measured run and not reported (0: none)
 */
public record CompareSettings(
        int initialStock,
        int parallel,
        int quantity,
        List<String> strategies,
        int repetitions,
        @Nullable Integer delayMillis,
        Duration finalTimeout,
        int warmup) {

    public CompareSettings {
        if (initialStock < 0) {
            throw new IllegalArgumentException("initial stock must not be negative: " + initialStock);
        }
        if (parallel < 1) {
            throw new IllegalArgumentException("parallel must be positive: " + parallel);
        }
        if (quantity < 1) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        strategies = List.copyOf(strategies);
        if (strategies.isEmpty()) {
            throw new IllegalArgumentException("at least one strategy is needed");
        }
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be positive: " + repetitions);
        }
        if (delayMillis != null && (delayMillis < 0 || delayMillis > 10_000)) {
            throw new IllegalArgumentException("delay must be 0 to 10000 ms: " + delayMillis);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("warm-up must not be negative: " + warmup);
        }
        if (!finalTimeout.isPositive()) {
            throw new IllegalArgumentException("final timeout must be positive: " + finalTimeout);
        }
    }
}
