package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.backlog.LagTimeline;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a run's recorded offsets and owners say about its rebalance: which partitions moved (their owner at the end
 * differs from the one just before the event), when they were first seen with their final owners ({@code null} if
 * never), and each partition's longest pause from the event to lag zero, the longest among the moved, the stayed and
 * the killed worker's partitions ({@code null} when none was killed).
 *
 * @param gapBefore the longest pause of any partition in the second half of the time before the event: the workers'
 *     normal rhythm, start-up transients past
 */
record Pauses(
        List<Integer> moved,
        @Nullable Long reassignedAtMillis,
        Map<Integer, Long> byPartition,
        long longestMoved,
        long longestStayed,
        List<Integer> killedPartitions,
        @Nullable Long longestKilled,
        long gapBefore) {

    /**
     * Reads the pauses from the event ({@code eventMillis} on the timeline's clock, negative if it never came, with the
     * owners of the sample that fired it) to lag zero; {@code killed} is the killed worker's name, {@code null} for add.
     */
    static Pauses of(
            LagTimeline timeline,
            long eventMillis,
            Map<Integer, String> ownersBefore,
            @Nullable String killed,
            long endMillis) {
        var event = Math.max(0, eventMillis);
        var ownersAfter = timeline.samples().getLast().owners();
        var moved = new ArrayList<Integer>();
        for (var partition : timeline.start().keySet()) {
            if (!Objects.equals(ownersBefore.get(partition), ownersAfter.get(partition))) {
                moved.add(partition);
            }
        }
        var reassignedAt = eventMillis < 0 || ownersAfter.isEmpty()
                ? null
                : timeline.samples().stream()
                        .filter(sample -> sample.atMillis() > eventMillis
                                && sample.owners().equals(ownersAfter))
                        .map(sample -> sample.atMillis())
                        .findFirst()
                        .orElse(null);
        var pauses = timeline.longestStallMillis(event, endMillis);
        var gapBefore = timeline.longestStallMillis(event / 2, event).values().stream()
                .mapToLong(Long::longValue)
                .max()
                .orElse(0);
        var killedPartitions = killed == null ? List.<Integer>of() : ownedBy(ownersBefore, killed);
        var stayed = new ArrayList<>(pauses.keySet());
        stayed.removeAll(moved);
        return new Pauses(
                moved,
                reassignedAt,
                pauses,
                longestAmong(pauses, moved),
                longestAmong(pauses, stayed),
                killedPartitions,
                killed == null ? null : longestAmong(pauses, killedPartitions),
                gapBefore);
    }

    /**
     * The partitions a worker owned, by the owners' client ids: its name, or its name and {@code -<index>} as
     * spring-kafka suffixes a listener container's consumers.
     */
    static List<Integer> ownedBy(Map<Integer, String> owners, String worker) {
        return owners.entrySet().stream()
                .filter(entry ->
                        entry.getValue().equals(worker) || entry.getValue().startsWith(worker + "-"))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    /** The longest pause among {@code partitions}; 0 when none of them paused or there are none. */
    static long longestAmong(Map<Integer, Long> pauses, Collection<Integer> partitions) {
        return partitions.stream()
                .mapToLong(partition -> pauses.getOrDefault(partition, 0L))
                .max()
                .orElse(0);
    }
}
