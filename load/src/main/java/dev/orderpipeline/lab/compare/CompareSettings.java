package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One compare: every strategy gets {@code repetitions} runs, each on a fresh product; the fields are the options of
 * {@code bin/lab compare}, a {@code null} {@code delayMillis} meaning the API's own delay.
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
        Require.notNegative("initial stock", initialStock);
        Require.positive("parallel", parallel);
        Require.positive("quantity", quantity);
        strategies = List.copyOf(strategies);
        Require.notEmpty("strategy", strategies);
        Require.positive("repetitions", repetitions);
        Require.check(
                delayMillis == null || (delayMillis >= 0 && delayMillis <= 10_000),
                "delay must be 0 to 10000 ms: " + delayMillis);
        Require.notNegative("warm-up", warmup);
        Require.positive("final timeout", finalTimeout);
    }
}
