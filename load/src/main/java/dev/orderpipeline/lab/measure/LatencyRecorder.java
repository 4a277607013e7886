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

    /** The percentiles so far; an empty recorder's are zeros. */
    public Latency summary() {
        return new Latency(
                histogram.getTotalCount(),
                millis(histogram.getValueAtPercentile(50)),
                millis(histogram.getValueAtPercentile(95)),
                millis(histogram.getValueAtPercentile(99)),
                millis(histogram.getMaxValue()));
    }

    /** Microseconds as milliseconds with two decimals. */
    private static double millis(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }

    static long clamp(long micros) {
        return Math.min(Math.max(micros, 1), HIGHEST_MICROS);
    }
}
