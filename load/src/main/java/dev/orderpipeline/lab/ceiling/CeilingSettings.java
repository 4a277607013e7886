package dev.orderpipeline.lab.ceiling;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One ceiling measurement.
 *
 * @param batchSizes commands per transaction, one run each, in this order
 * @param commands commands per run, at most (orders prepared for it)
 * @param maxDuration a run stops after this even if commands are left; the orders it did not reach are removed
 * @param synchronousCommit {@code synchronous_commit} of the writer's session ({@code on}: every commit waits for
 *     its WAL flush)
 */
public record CeilingSettings(List<Integer> batchSizes, int commands, Duration maxDuration, String synchronousCommit) {

    private static final Set<String> SYNCHRONOUS_COMMIT = Set.of("on", "off", "local", "remote_write", "remote_apply");

    public CeilingSettings {
        batchSizes = List.copyOf(batchSizes);
        if (batchSizes.isEmpty()) {
            throw new IllegalArgumentException("at least one batch size is needed");
        }
        for (var size : batchSizes) {
            if (size < 1 || size > 10_000) {
                throw new IllegalArgumentException("batch sizes must be 1 to 10000: " + size);
            }
        }
        if (commands < 1) {
            throw new IllegalArgumentException("commands must be positive: " + commands);
        }
        if (!maxDuration.isPositive()) {
            throw new IllegalArgumentException("the duration must be positive: " + maxDuration);
        }
        synchronousCommit = synchronousCommit.toLowerCase(Locale.ROOT);
        if (!SYNCHRONOUS_COMMIT.contains(synchronousCommit)) {
            throw new IllegalArgumentException("synchronous_commit must be one of " + SYNCHRONOUS_COMMIT);
        }
    }
}
