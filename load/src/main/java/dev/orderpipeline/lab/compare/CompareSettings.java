package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One compare: every strategy gets {@code repetitions} runs, each on fresh products; the fields are the options of
 * {@code bin/lab compare}, a {@code null} {@code delayMillis} meaning the API's own delay.
 *
 * @param carts the carts workload's shape; {@code null}: the orders workload, an order of one product per buyer
 */
public record CompareSettings(
        int initialStock,
        int parallel,
        List<String> strategies,
        int repetitions,
        @Nullable Integer delayMillis,
        Duration finalTimeout,
        int warmup,
        @Nullable Carts carts) {

    public CompareSettings {
        Require.notNegative("initial stock", initialStock);
        Require.positive("parallel", parallel);
        strategies = List.copyOf(strategies);
        Require.notEmpty("strategy", strategies);
        Require.positive("repetitions", repetitions);
        Require.check(
                delayMillis == null || (delayMillis >= 0 && delayMillis <= 10_000),
                "delay must be 0 to 10000 ms: " + delayMillis);
        Require.notNegative("warm-up", warmup);
        Require.positive("final timeout", finalTimeout);
    }

    /**
     * The carts workload: {@code products} fresh products per run, each buyer's cart a line of {@code lines} of them,
     * pairs of carts listing the same products in opposite orders ({@link CartShapes}).
     */
    public record Carts(int products, int lines) {

        public Carts {
            Require.check(lines >= 2 && lines <= products, "lines must be 2 to products (" + products + "): " + lines);
        }
    }

    /** The run's fresh products: one for orders, {@code carts.products} for carts. */
    int products() {
        return carts == null ? 1 : carts.products();
    }
}
