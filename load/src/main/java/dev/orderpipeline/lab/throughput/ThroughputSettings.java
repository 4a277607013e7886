package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.List;

/**
 * One throughput experiment: {@code repetitions} rounds of every strategy, each run preceded by an unreported warm-up;
 * the fields are the options of {@code bin/lab throughput}.
 *
 * @param maxRate checkouts per second the orders of a strategy's first warm-up are prepared for; later runs are
 *     prepared for {@link #HEADROOM} times the rate of the strategy's run before
 */
public record ThroughputSettings(
        List<String> strategies, int connections, Duration duration, Duration warmup, int repetitions, int maxRate) {

    /** How many times the last rate a run's orders are prepared for: a warm JVM goes faster than a cold one. */
    static final int HEADROOM = 2;

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
