package dev.orderpipeline.lab.scale;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;

/**
 * A scaling grid.
 *
 * @param partitionCounts partitions of the command topic, one topic per count (rising)
 * @param workerCounts worker processes in the group (rising; workers are added, never restarted, within a count of
 *     partitions)
 * @param keys key distributions ({@code hot}, {@code uniform:N}, {@code zipf:N:s}), each run in every cell
 * @param commands checkouts per cell
 * @param warmup checkouts drained untimed whenever workers joined, before the cells (JIT, connections); 0 for none
 * @param lagInterval how often the group's offsets are read
 * @param timeout a cell fails if its lag is not zero by then
 */
public record ScaleSettings(
        List<Integer> partitionCounts,
        List<Integer> workerCounts,
        List<String> keys,
        int commands,
        int warmup,
        Duration lagInterval,
        Duration timeout) {

    public ScaleSettings {
        partitionCounts = partitionCounts.stream().distinct().sorted().toList();
        workerCounts = workerCounts.stream().distinct().sorted().toList();
        keys = keys.stream().map(key -> KeyDistribution.parse(key).label()).toList();
        if (partitionCounts.isEmpty() || workerCounts.isEmpty() || keys.isEmpty()) {
            throw new IllegalArgumentException("the grid needs partitions, workers and key distributions");
        }
        if (partitionCounts.getFirst() < 1 || workerCounts.getFirst() < 1) {
            throw new IllegalArgumentException("partitions and workers must be positive");
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("warm-up must not be negative: " + warmup);
        }
        if (commands < 1) {
            throw new IllegalArgumentException("commands must be positive: " + commands);
        }
    }

    public List<KeyDistribution> distributions() {
        return keys.stream().map(KeyDistribution::parse).toList();
    }

    public int cells() {
        return partitionCounts.size() * workerCounts.size() * keys.size();
    }
}
