package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.ceiling.CeilingSettings;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One drain.
 *
 * @param commands checkouts pre-filled on the command topic
 * @param keys how they spread over products: {@code hot}, {@code uniform:N} or {@code zipf:N:s}
 * @param workers worker processes started together once the backlog is in place
 * @param lagInterval how often the group's offsets are read (the drain curve's resolution)
 * @param timeout the drain fails if the lag is not zero by then
 * @param ceiling the ceiling to measure after the drain on the same database, or {@code null} for none
 */
public record DrainSettings(
        int commands,
        String keys,
        int workers,
        Duration lagInterval,
        Duration timeout,
        @Nullable CeilingSettings ceiling) {

    public DrainSettings {
        if (commands < 1) {
            throw new IllegalArgumentException("commands must be positive: " + commands);
        }
        keys = KeyDistribution.parse(keys).label();
        if (workers < 1) {
            throw new IllegalArgumentException("at least one worker drains: " + workers);
        }
        if (!lagInterval.isPositive() || !timeout.isPositive()) {
            throw new IllegalArgumentException("the lag interval and the timeout must be positive");
        }
    }

    public KeyDistribution distribution() {
        return KeyDistribution.parse(keys);
    }
}
