package dev.orderpipeline.lab.backlog;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A run's offset samples read against the offsets the run started from: lag (produced but not committed), progress
 * (committed since the start), the lag curve, and the longest time a partition had work and made no progress.
 *
 * @param start per partition, the end offset when the run began: everything before it belongs to earlier runs
 * @param samples in time order
 */
public record LagTimeline(Map<Integer, Long> start, List<OffsetSample> samples) {

    public LagTimeline {
        start = new TreeMap<>(start);
        samples = List.copyOf(samples);
    }

    /**
     * Records of one partition not yet committed by the group. A partition the group never committed counts from the
     * run's start, and a commit older than the start (an earlier run's) counts as the start.
     */
    public static long lag(long end, @Nullable Long committed, long start) {
        var position = committed == null ? start : Math.max(committed, start);
        return Math.max(0, end - position);
    }

    /** Records the group committed since the run's start, on one partition. */
    public static long consumed(@Nullable Long committed, long start) {
        return committed == null ? 0 : Math.max(0, committed - start);
    }

    public long lag(OffsetSample sample, int partition) {
        var base = start.getOrDefault(partition, 0L);
        return lag(
                sample.end().getOrDefault(partition, base), sample.committed().get(partition), base);
    }

    public long totalLag(OffsetSample sample) {
        return partitions(sample).stream()
                .mapToLong(partition -> lag(sample, partition))
                .sum();
    }

    public long consumed(OffsetSample sample) {
        return partitions(sample).stream()
                .mapToLong(partition -> consumed(sample.committed().get(partition), start.getOrDefault(partition, 0L)))
                .sum();
    }

    /** The first sample at which {@code expected} records had been committed and nothing was left. */
    public OptionalLong drainedAtMillis(long expected) {
        for (var sample : samples) {
            if (consumed(sample) >= expected && totalLag(sample) == 0) {
                return OptionalLong.of(sample.atMillis());
            }
        }
        return OptionalLong.empty();
    }

    public record Point(double seconds, long lag) {}

    /** The lag at each sample. */
    public List<Point> curve() {
        return samples.stream()
                .map(sample -> new Point(sample.atMillis() / 1000.0, totalLag(sample)))
                .toList();
    }

    /**
     * Per partition, the longest time within {@code [fromMillis, toMillis]} during which it had records waiting and
     * its committed offset did not move: the pause a consumer of that partition caused (a rebalance, a dead member
     * awaiting its session timeout). Time when the partition had nothing to do is not a pause. The resolution is the
     * sampling interval plus the time a worker takes for one poll.
     */
    public Map<Integer, Long> longestStallMillis(long fromMillis, long toMillis) {
        var stalls = new TreeMap<Integer, Long>();
        var window = samples.stream()
                .filter(sample -> sample.atMillis() >= fromMillis && sample.atMillis() <= toMillis)
                .toList();
        if (window.isEmpty()) {
            return stalls;
        }
        for (var partition : partitions(window.getFirst())) {
            long longest = 0;
            var since = window.getFirst().atMillis();
            var position = window.getFirst().committed().get(partition);
            var waiting = lag(window.getFirst(), partition) > 0;
            for (var sample : window.subList(1, window.size())) {
                var committed = sample.committed().get(partition);
                var moved = committed != null && (position == null || committed > position);
                if (moved) {
                    if (waiting) {
                        longest = Math.max(longest, sample.atMillis() - since);
                    }
                    since = sample.atMillis();
                    position = committed;
                    waiting = lag(sample, partition) > 0;
                } else if (!waiting) {
                    // nothing to do until now: a pause can only start once records wait
                    since = sample.atMillis();
                    waiting = lag(sample, partition) > 0;
                }
            }
            if (waiting) {
                longest = Math.max(longest, window.getLast().atMillis() - since);
            }
            stalls.put(partition, longest);
        }
        return stalls;
    }

    private Set<Integer> partitions(OffsetSample sample) {
        var partitions = new TreeSet<>(start.keySet());
        partitions.addAll(sample.end().keySet());
        return partitions;
    }
}
