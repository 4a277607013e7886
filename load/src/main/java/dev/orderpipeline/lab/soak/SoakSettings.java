package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One soak: every strategy at every rate, each run on a fresh hot product.
 *
 * @param strategies strategy names, in run order
 * @param keys key distributions ({@code hot}, {@code uniform:N}, {@code zipf:N:s}), each run for every strategy
 * @param rates target arrival rates per second, in run order (a rising list finds the saturation point)
 * @param duration how long each run schedules arrivals
 * @param maxInFlight requests allowed in flight at once; an arrival beyond it is dropped and counted
 * @param stock units of each product; {@code null} for one per arrival, so nothing is rejected for want of stock
 * @param delayMillis the check-to-write delay passed as {@code ?delayMs=}, or {@code null}
 * @param p99Limit a run whose p99 exceeds this counts as saturated
 * @param warmup per strategy, an unreported run this long at the first rate and key distribution first (JIT,
 *     connections); zero for none
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
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("at least one key distribution is needed");
        }
        if (strategies.isEmpty() || rates.isEmpty()) {
            throw new IllegalArgumentException("at least one strategy and one rate are needed");
        }
        for (var rate : rates) {
            if (rate < 1) {
                throw new IllegalArgumentException("rates must be positive: " + rate);
            }
        }
        if (!duration.isPositive()) {
            throw new IllegalArgumentException("duration must be positive: " + duration);
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("max in flight must be positive: " + maxInFlight);
        }
        if (stock != null && stock < 0) {
            throw new IllegalArgumentException("stock must not be negative: " + stock);
        }
        if (delayMillis != null && (delayMillis < 0 || delayMillis > 10_000)) {
            throw new IllegalArgumentException("delay must be 0 to 10000 ms: " + delayMillis);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warm-up must not be negative: " + warmup);
        }
        if (!p99Limit.isPositive()) {
            throw new IllegalArgumentException("p99 limit must be positive: " + p99Limit);
        }
    }

    public List<KeyDistribution> distributions() {
        return keys.stream().map(KeyDistribution::parse).toList();
    }
}
