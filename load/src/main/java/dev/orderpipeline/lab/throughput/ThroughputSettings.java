package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;

/**
 * One throughput experiment: {@code repetitions} rounds of every strategy on every key distribution, each run
 * preceded by an unreported warm-up; the fields are the options of {@code bin/lab throughput}.
 *
 * @param keys how the checkouts spread over products, as {@link KeyDistribution} labels
 * @param stackWarmup before the first round, every strategy on every key distribution for an equal share of this,
 *     unreported: a JVM just started spends about twice the CPU per checkout
 * @param maxRate checkouts per second of a run its orders are prepared for: a faster loop runs out of them and stops
 *     early (the orders not sent are removed after the run)
 * @param drainCommands commands of the partition-drain probe for the capacity model; 0: no model
 * @param hotRowWriters connection counts of the hot-row probe for the capacity model, one run each
 */
public record ThroughputSettings(
        List<String> strategies,
        List<String> keys,
        int connections,
        Duration duration,
        Duration warmup,
        Duration stackWarmup,
        int repetitions,
        int maxRate,
        int drainCommands,
        List<Integer> hotRowWriters) {

    public ThroughputSettings {
        strategies = List.copyOf(strategies);
        keys = keys.stream().map(key -> KeyDistribution.parse(key).label()).toList();
        Require.notEmpty("strategy", strategies);
        Require.notEmpty("key distribution", keys);
        Require.positive("connections", connections);
        Require.positive("duration", duration);
        Require.notNegative("warm-up", warmup);
        Require.notNegative("stack warm-up", stackWarmup);
        Require.positive("repetitions", repetitions);
        Require.positive("max rate", maxRate);
        Require.notNegative("drain commands", drainCommands);
        hotRowWriters = List.copyOf(hotRowWriters);
        Require.notEmpty("hot-row writer count", hotRowWriters);
        hotRowWriters.forEach(writers -> Require.positive("hot-row writers", writers));
    }

    public List<KeyDistribution> distributions() {
        return keys.stream().map(KeyDistribution::parse).toList();
    }
}
