package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.chaos.ChaosRun.PartitionStall;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * How long each command partition of the load's products went without a decision from a fault on, read once every
 * partition had a decision after the fault was over, so that the gap the fault made is closed.
 */
final class PartitionStalls {

    private PartitionStalls() {}

    /** Waits for a decision after {@code overAtMillis} on every partition, then measures from {@code faultAtMillis}. */
    static List<PartitionStall> measure(FaultRun run, Collection<Integer> held, long faultAtMillis, long overAtMillis) {
        var byPartition = byPartition(run);
        var deadline = System.nanoTime() + run.settings().catchUpLimit().toNanos();
        while (System.nanoTime() - deadline < 0 && !decidedAfter(run, byPartition, overAtMillis)) {
            FaultRun.pause(FaultRun.POLL);
        }
        var times = run.database().decisionTimes(run.products(), faultAtMillis, System.currentTimeMillis());
        var stalls = new ArrayList<PartitionStall>();
        byPartition.forEach((partition, products) -> stalls.add(new PartitionStall(
                partition,
                products.size(),
                held.contains(partition),
                longestGap(
                        faultAtMillis,
                        products.stream()
                                .flatMap(product -> times.getOrDefault(product, List.of()).stream())
                                .sorted()
                                .toList()))));
        return stalls;
    }

    static Map<Integer, List<UUID>> byPartition(FaultRun run) {
        var partitions = run.topics().endOffsets(Topics.CHECKOUT_COMMANDS).size();
        var byPartition = new TreeMap<Integer, List<UUID>>();
        for (var product : run.products()) {
            byPartition
                    .computeIfAbsent(WorkerKills.partitionOf(product, partitions), none -> new ArrayList<>())
                    .add(product);
        }
        return byPartition;
    }

    /** Seconds: the longest of the gaps from {@code from} through the sorted decisions; null for none. */
    static @Nullable Double longestGap(long from, List<Long> decisions) {
        if (decisions.isEmpty()) {
            return null;
        }
        var longest = 0L;
        var last = from;
        for (var decision : decisions) {
            longest = Math.max(longest, decision - last);
            last = decision;
        }
        return ChaosJudge.round(longest / 1000.0);
    }

    private static boolean decidedAfter(FaultRun run, Map<Integer, List<UUID>> byPartition, long afterMillis) {
        var first = run.database()
                .decisionTimes(run.products(), afterMillis, System.currentTimeMillis())
                .keySet();
        return byPartition.values().stream()
                .allMatch(products -> products.stream().anyMatch(first::contains));
    }
}
