package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One soak: every strategy at every rate and key distribution, each run on fresh products; the fields are the
 * options of {@code bin/lab soak}, a {@code null} {@code stock} meaning one unit per arrival.
 */
public record SoakSettings(
        List<String> strategies,
        List<String> keys,
        List<Integer> rates,
        Duration duration,
        int maxInFlight,
        @Nullable Integer stock,
        @Nullable Integer delayMillis,
        Duration p99Limit,
        Duration warmup) {

    public SoakSettings {
        strategies = List.copyOf(strategies);
        keys = keys.stream().map(key -> KeyDistribution.parse(key).label()).toList();
        rates = List.copyOf(rates);
        Require.notEmpty("key distribution", keys);
        Require.check(!strategies.isEmpty() && !rates.isEmpty(), "at least one strategy and one rate are needed");
        rates.forEach(rate -> Require.positive("rates", rate));
        Require.positive("duration", duration);
        Require.positive("max in flight", maxInFlight);
        Require.notNegative("stock", stock == null ? 0 : stock);
        Require.check(
                delayMillis == null || (delayMillis >= 0 && delayMillis <= 10_000),
                "delay must be 0 to 10000 ms: " + delayMillis);
        Require.notNegative("warm-up", warmup);
        Require.positive("p99 limit", p99Limit);
    }

    public List<KeyDistribution> distributions() {
        return keys.stream().map(KeyDistribution::parse).toList();
    }
}
