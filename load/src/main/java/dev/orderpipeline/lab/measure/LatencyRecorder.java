package dev.orderpipeline.lab.measure;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Records latencies from many threads at once into an HdrHistogram (microseconds, three significant digits), so
 * percentiles come from every sample rather than from an average of averages.
 */
public final class LatencyRecorder {

    /** Anything slower is recorded as this: no request the lab sends may take longer. */
    static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final Histogram histogram = new ConcurrentHistogram(1, HIGHEST_MICROS, 3);

    public void recordNanos(long nanos) {
        histogram.recordValue(clamp(TimeUnit.NANOSECONDS.toMicros(nanos)));
    }

    public long count() {
        return histogram.getTotalCount();
    }

    public Latency summary() {
        return Latency.ofMicros(histogram);
    }

    static long clamp(long micros) {
        return Math.min(Math.max(micros, 1), HIGHEST_MICROS);
    }
}
