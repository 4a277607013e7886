package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.measure.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SynchronizedHistogram;

/**
 * Counts per second of a soak run, from many threads: arrivals by the second they were due, answers and their
 * latency by the second they came in. Answers after the last second are counted in it.
 */
final class Timeline {

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final int seconds;
    private final AtomicLongArray started;
    private final AtomicLongArray dropped;
    private final AtomicLongArray succeeded;
    private final AtomicLongArray errors;
    private final AtomicLongArray decided;
    private final Histogram[] latency;

    Timeline(int seconds) {
        if (seconds < 1) {
            throw new IllegalArgumentException("seconds must be positive: " + seconds);
        }
        this.seconds = seconds;
        started = new AtomicLongArray(seconds);
        dropped = new AtomicLongArray(seconds);
        succeeded = new AtomicLongArray(seconds);
        errors = new AtomicLongArray(seconds);
        decided = new AtomicLongArray(seconds);
        latency = new Histogram[seconds];
        for (var second = 0; second < seconds; second++) {
            // two digits are plenty for a per-second view and keep long runs small
            latency[second] = new SynchronizedHistogram(1, HIGHEST_MICROS, 2);
        }
    }

    void started(int second) {
        started.incrementAndGet(clamp(second));
    }

    void dropped(int second) {
        dropped.incrementAndGet(clamp(second));
    }

    /** A kafka result that reached the lab {@code sinceStartNanos} after the first arrival was due. */
    void decided(long sinceStartNanos) {
        decided.incrementAndGet(clamp((int) Math.max(0, sinceStartNanos / 1_000_000_000L)));
    }

    /** An answer {@code sinceStartNanos} after the first arrival was due, {@code latencyNanos} after its own. */
    void answered(long sinceStartNanos, long latencyNanos, boolean success) {
        var second = clamp((int) Math.max(0, sinceStartNanos / 1_000_000_000L));
        (success ? succeeded : errors).incrementAndGet(second);
        latency[second].recordValue(Math.min(Math.max(TimeUnit.NANOSECONDS.toMicros(latencyNanos), 1), HIGHEST_MICROS));
    }

    /** The seconds up to the last one with anything in it. */
    List<SoakRun.SoakSecond> seconds() {
        var last = IntStream.range(0, seconds)
                .filter(second -> started.get(second)
                                + dropped.get(second)
                                + succeeded.get(second)
                                + errors.get(second)
                                + decided.get(second)
                        > 0)
                .max()
                .orElse(-1);
        var rows = new ArrayList<SoakRun.SoakSecond>();
        for (var second = 0; second <= last; second++) {
            var summary = Latency.ofMicros(latency[second]);
            rows.add(new SoakRun.SoakSecond(
                    second,
                    started.get(second),
                    succeeded.get(second),
                    errors.get(second),
                    dropped.get(second),
                    decided.get(second),
                    summary.p50Ms(),
                    summary.p99Ms(),
                    summary.maxMs()));
        }
        return rows;
    }

    private int clamp(int second) {
        return Math.min(Math.max(second, 0), seconds - 1);
    }
}
