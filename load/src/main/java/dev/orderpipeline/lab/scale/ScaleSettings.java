package dev.orderpipeline.lab.scale;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;

/**
 * A scaling grid; the fields are the options of {@code bin/lab scale}, the counts rising (workers are added, never
 * restarted, within a count of partitions).
 */
public record ScaleSettings(
        List<Integer> partitionCounts,
        List<Integer> workerCounts,
        List<KeyDistribution> keys,
        int commands,
        int warmup,
        Duration lagInterval,
        Duration timeout) {

    public ScaleSettings {
        partitionCounts = partitionCounts.stream().distinct().sorted().toList();
        workerCounts = workerCounts.stream().distinct().sorted().toList();
        keys = List.copyOf(keys);
        Require.check(
                !partitionCounts.isEmpty() && !workerCounts.isEmpty() && !keys.isEmpty(),
                "the grid needs partitions, workers and key distributions");
        Require.positive("partitions", partitionCounts.getFirst());
        Require.positive("workers", workerCounts.getFirst());
        Require.notNegative("warm-up", warmup);
        Require.positive("commands", commands);
    }

    public int cells() {
        return partitionCounts.size() * workerCounts.size() * keys.size();
    }
}
