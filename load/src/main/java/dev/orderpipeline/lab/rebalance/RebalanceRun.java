package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.measure.Latency;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One scenario under one protocol.
 *
 * @param scenario {@code add}, {@code kill} or {@code restart}
 * @param protocol the {@code group.protocol} the workers were given
 * @param groupType the group's type as the broker reported it ({@code CLASSIC} or {@code CONSUMER}): proof the
 *     workers used the protocol asked for
 * @param commands checkouts in the backlog
 * @param seconds from the first send to lag zero
 * @param perSecond commands / seconds
 * @param eventAtSeconds when the worker was started or killed
 * @param newWorkerReadyAtSeconds add: when the new worker reported ready; restart: when the restarted one did;
 *     {@code null} otherwise
 * @param reassignedAtSeconds when the partitions were first seen with their final owners after the event
 * @param ownersBefore partition to owning worker just before the event
 * @param ownersAfter partition to owning worker at the end
 * @param moved partitions whose owner changed
 * @param longestPauseMovedMillis the longest time a moved partition had records waiting and made no progress
 * @param longestPauseStayedMillis the same for the partitions that kept their owner
 * @param killed kill and restart: the worker killed; {@code null} for add
 * @param killedPartitions the partitions it owned just before the event (with static membership a restarted worker
 *     gets them back, so they do not show as moved)
 * @param longestPauseKilledMillis the longest pause on those partitions after the event; null for add and in reports
 *     written before it was measured
 * @param longestGapBeforeMillis the longest such time on any partition before the event: the normal gap between
 *     a partition's commits, against which a pause reads
 * @param pauseByPartitionMillis per partition, its longest pause after the event
 * @param results result records of the run's orders
 * @param duplicates results flagged duplicate: redeliveries the idempotency table absorbed
 * @param ordersWithoutResult orders decided in the database whose result never reached checkout.results (a worker
 *     killed after its commit, before its results were acknowledged): the client then reads the order
 * @param duplicatesCounted what the surviving workers' checkout.commands{outcome=duplicate} counters said
 * @param endToEnd from each command's record timestamp to its first result's
 * @param curve lag and progress over time
 * @param events what happened when, in words
 * @param invariants the database's verdict
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
