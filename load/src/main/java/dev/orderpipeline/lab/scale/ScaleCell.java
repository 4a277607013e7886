package dev.orderpipeline.lab.scale;

import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One cell of the grid: a backlog drained by {@code workers} processes from {@code partitions} partitions.
 *
 * @param producedPerSecond how fast the lab's producer sent them (the workers were draining meanwhile)
 * @param seconds from the first send to the group's lag reaching zero
 * @param endToEnd from each command's record timestamp to its result's: mostly time queued behind the backlog
 * @param cost per decided checkout; {@code null} when none was decided or the report predates it
 */
public record ScaleCell(
        int partitions,
        int workers,
        String keys,
        long commands,
        int products,
        double producedPerSecond,
        double seconds,
        double perSecond,
        Latency endToEnd,
        List<Long> recordsPerPartition,
        List<LagPoint> lag,
        long duplicates,
        ResourceUsage resources,
        RunInvariants.Summary invariants,
        @Nullable CheckoutCost cost) {

    public ScaleCell {
        recordsPerPartition = List.copyOf(recordsPerPartition);
        lag = List.copyOf(lag);
    }

    public String label() {
        return label(partitions, workers, keys);
    }

    /** {@code P=6 W=2 uniform:10000}. */
    static String label(int partitions, int workers, String keys) {
        return "P=" + partitions + " W=" + workers + " " + keys;
    }

    /** Lag of every partition, in partition order, at one moment. */
    public record LagPoint(double seconds, List<Long> lagByPartition) {

        public LagPoint {
            lagByPartition = List.copyOf(lagByPartition);
        }
    }

    /** The share of the backlog on the busiest partition: 1.0 when one partition took everything. */
    public double busiestPartitionShare() {
        var total = recordsPerPartition.stream().mapToLong(Long::longValue).sum();
        var busiest =
                recordsPerPartition.stream().mapToLong(Long::longValue).max().orElse(0);
        return total == 0 ? 0 : (double) busiest / total;
    }

    /** How the run's records fell on the partitions: per partition, from the run's start to the last sample's end. */
    static List<Long> recordsPerPartition(LagTimeline timeline) {
        var last = timeline.samples().getLast();
        return timeline.start().entrySet().stream()
                .map(start -> last.end().getOrDefault(start.getKey(), 0L) - start.getValue())
                .toList();
    }

    /** Every sample as the lag of each partition, in partition order. */
    static List<LagPoint> lagPoints(LagTimeline timeline) {
        return timeline.samples().stream()
                .map(sample -> new LagPoint(
                        sample.atMillis() / 1000.0,
                        timeline.start().keySet().stream()
                                .map(partition -> timeline.lag(sample, partition))
                                .toList()))
                .toList();
    }
}
