package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.List;

/**
 * One ceiling measurement; the fields are the ceiling options of {@code bin/lab drain}. A run stops after
 * {@code maxDuration} even if commands are left; the orders it did not reach are removed.
 *
 * @param writers connections applying the commands at once, all on the one hot product: 1 is the worker's case (one
 *     writer per partition); more, with k = 1, is every lock strategy's case, one transaction per checkout queueing
 *     on the product's row
 */
public record CeilingSettings(List<Integer> batchSizes, int commands, Duration maxDuration, int writers) {

    public CeilingSettings {
        batchSizes = List.copyOf(batchSizes);
        Require.notEmpty("batch size", batchSizes);
        batchSizes.forEach(
                size -> Require.check(size >= 1 && size <= 10_000, "batch sizes must be 1 to 10000: " + size));
        Require.positive("commands", commands);
        Require.positive("the duration", maxDuration);
        Require.positive("writers", writers);
    }
}
