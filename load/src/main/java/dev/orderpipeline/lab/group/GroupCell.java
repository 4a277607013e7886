package dev.orderpipeline.lab.group;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One cell of the grid: a backlog drained by a group of {@code workers} processes from {@code partitions} partitions
 * under {@code protocol}, with {@code event} fired part way through. Times count from the first send; what a cell
 * recorded before the lab measured it is empty or {@code null}.
 *
 * @param workers the group's largest size in the cell: add starts one fewer, kill ends with one fewer
 * @param groupType the group's type as the broker reported it: proof the workers used the protocol asked for
 * @param perSecond commands from the first send to the group's lag reaching zero, per second
 * @param endToEnd from each command's record timestamp to its result's: in a backlog, mostly time queued
 * @param curve the group's lag and commit rate at each offset sample
 * @param duplicates results flagged duplicate on checkout.results
 * @param duplicatesCounted what the workers alive at the end counted (a killed worker's count is lost with it)
 * @param cost per decided checkout
 * @param disruption what the event did; {@code null} for none
 */
public record GroupCell(
        int partitions,
        int workers,
        String keys,
        String event,
        String protocol,
        @Nullable String groupType,
        double perSecond,
        @Nullable Latency endToEnd,
        List<Long> recordsPerPartition,
        List<LagTimeline.Point> curve,
        long duplicates,
        @Nullable Long duplicatesCounted,
        RunVerdict invariants,
        @Nullable CheckoutCost cost,
        @Nullable Disruption disruption) {

    public GroupCell {
        recordsPerPartition = List.copyOf(recordsPerPartition);
        curve = List.copyOf(curve);
    }

    /** {@code P=6 W=2 uniform:10000}: the group and its load, without the event. */
    public String setup() {
        return "P=" + partitions + " W=" + workers + " " + keys;
    }

    public String label() {
        return label(partitions, workers, keys, event, protocol);
    }

    /** {@code P=6 W=2 hot}, {@code P=6 W=2 hot / consumer}, {@code P=6 W=2 hot kill / classic}. */
    static String label(int partitions, int workers, String keys, String event, String protocol) {
        var undisturbed = event.equals(GroupSettings.NONE);
        return "P=" + partitions + " W=" + workers + " " + keys + (undisturbed ? "" : " " + event)
                + (undisturbed && protocol.equals("classic") ? "" : " / " + protocol);
    }

    /** The busiest partition's share of the backlog (1.0: one took everything); {@code null} when not recorded. */
    public @Nullable Double busiestPartitionShare() {
        var total = recordsPerPartition.stream().mapToLong(Long::longValue).sum();
        var busiest =
                recordsPerPartition.stream().mapToLong(Long::longValue).max().orElse(0);
        return total == 0 ? null : (double) busiest / total;
    }

    /** How the run's records fell on the partitions: per partition, from the run's start to the last sample's end. */
    static List<Long> recordsPerPartition(LagTimeline timeline) {
        var last = timeline.samples().getLast();
        return timeline.start().entrySet().stream()
                .map(start -> last.end().getOrDefault(start.getKey(), 0L) - start.getValue())
                .toList();
    }
}
