package dev.orderpipeline.lab.group;

import dev.orderpipeline.lab.backlog.LagTimeline;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a cell's event did, read from its recorded offsets and owners: which partitions moved (their owner at the end
 * differs from the one just before the event) and each partition's longest pause from the event to lag zero (the
 * longest time it had records waiting and its committed offset did not move), the longest among the moved, the
 * stayed and the killed worker's partitions.
 *
 * @param readyAtSeconds when the worker the event started (add, restart) answered ready; {@code null} if it did not
 * @param longestKilledMillis on the partitions the killed worker owned before the event; {@code null} for add
 * @param gapBeforeMillis the longest pause of any partition in the second half of the time before the event: the
 *     workers' normal rhythm, start-up transients past
 */
public record Disruption(
        double atSeconds,
        @Nullable Double readyAtSeconds,
        List<Integer> moved,
        long longestMovedMillis,
        long longestStayedMillis,
        @Nullable Long longestKilledMillis,
        long gapBeforeMillis) {

    public Disruption {
        moved = List.copyOf(moved);
    }

    /**
     * Reads the pauses from the event ({@code eventMillis} on the timeline's clock, negative if it never came, with the
     * owners of the sample that fired it) to lag zero at {@code endMillis}; {@code readyMillis} negative if never.
     */
    static Disruption of(
            LagTimeline timeline,
            long eventMillis,
            Map<Integer, String> ownersBefore,
            @Nullable String killed,
            long readyMillis,
            long endMillis) {
        var event = Math.max(0, eventMillis);
        var ownersAfter = timeline.samples().getLast().owners();
        var moved = new ArrayList<Integer>();
        for (var partition : timeline.start().keySet()) {
            if (!Objects.equals(ownersBefore.get(partition), ownersAfter.get(partition))) {
                moved.add(partition);
            }
        }
        var pauses = timeline.longestStallMillis(event, endMillis);
        var gapBefore = timeline.longestStallMillis(event / 2, event).values().stream()
                .mapToLong(Long::longValue)
                .max()
                .orElse(0);
        var killedPartitions = killed == null ? List.<Integer>of() : ownedBy(ownersBefore, killed);
        var stayed = new ArrayList<>(pauses.keySet());
        stayed.removeAll(moved);
        return new Disruption(
                event / 1000.0,
                readyMillis < 0 ? null : readyMillis / 1000.0,
                moved,
                longestAmong(pauses, moved),
                longestAmong(pauses, stayed),
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
