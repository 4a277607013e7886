package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.measure.Latency;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One scenario under one protocol; times count from the first send. A pause is the longest time a partition had
 * records waiting and made no progress; see {@link Pauses} for how each is read.
 *
 * @param groupType the group's type as the broker reported it: proof the workers used the protocol asked for
 * @param newWorkerReadyAtSeconds add: when the new worker reported ready; restart: when the restarted one did
 * @param killed kill and restart: the worker killed; {@code null} for add
 * @param longestPauseKilledMillis null for add and in reports written before it was measured
 * @param ordersWithoutResult orders decided in the database whose result never reached checkout.results (a worker
 *     killed after its commit, before its results were acknowledged): the client then reads the order
 * @param duplicatesCounted what the surviving workers' checkout.commands{outcome=duplicate} counters said
 */
public record RebalanceRun(
        String scenario,
        String protocol,
        String groupType,
        long commands,
        double seconds,
        double perSecond,
        double eventAtSeconds,
        @Nullable Double newWorkerReadyAtSeconds,
        @Nullable Double reassignedAtSeconds,
        Map<Integer, String> ownersBefore,
        Map<Integer, String> ownersAfter,
        List<Integer> moved,
        long longestPauseMovedMillis,
        long longestPauseStayedMillis,
        @Nullable String killed,
        List<Integer> killedPartitions,
        @Nullable Long longestPauseKilledMillis,
        long longestGapBeforeMillis,
        Map<Integer, Long> pauseByPartitionMillis,
        long results,
        long duplicates,
        long ordersWithoutResult,
        long duplicatesCounted,
        @Nullable Latency endToEnd,
        List<LagTimeline.Point> curve,
        List<String> events,
        RunInvariants.Summary invariants) {

    public RebalanceRun {
        ownersBefore = new java.util.TreeMap<>(ownersBefore);
        ownersAfter = new java.util.TreeMap<>(ownersAfter);
        moved = List.copyOf(moved);
        // absent from reports written before the killed worker's partitions were recorded
        killedPartitions = killedPartitions == null ? List.of() : List.copyOf(killedPartitions);
        pauseByPartitionMillis = new java.util.TreeMap<>(pauseByPartitionMillis);
        curve = List.copyOf(curve);
        events = List.copyOf(events);
    }

    public String label() {
        return scenario + " / " + protocol;
    }
}
