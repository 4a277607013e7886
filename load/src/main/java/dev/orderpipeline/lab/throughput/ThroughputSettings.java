package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.List;

/**
 * One throughput experiment: {@code repetitions} rounds of every strategy, each run preceded by an unreported warm-up;
 * the fields are the options of {@code bin/lab throughput}.
 *
 * @param maxRate checkouts per second of a run its orders are prepared for: a faster loop runs out of them and stops
 *     early (the orders not sent are removed after the run)
 */
public record ThroughputSettings(
        List<String> strategies, int connections, Duration duration, Duration warmup, int repetitions, int maxRate) {

    public ThroughputSettings {
        strategies = List.copyOf(strategies);
        Require.notEmpty("strategy", strategies);
        Require.positive("connections", connections);
        Require.positive("duration", duration);
        Require.notNegative("warm-up", warmup);
        Require.positive("repetitions", repetitions);
        Require.positive("max rate", maxRate);
    }
}
