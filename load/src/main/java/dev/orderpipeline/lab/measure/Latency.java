package dev.orderpipeline.lab.measure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.AbstractHistogram;

/** Percentiles of one latency distribution, in milliseconds (two decimals), and how many values were recorded. */
public record Latency(
        long count,
        double minMs,
        double meanMs,
        double p50Ms,
        double p90Ms,
        double p95Ms,
        double p99Ms,
        double p999Ms,
        double maxMs) {

    /** The percentiles the reports show of a latency, by name, in this order. */
    public static final SequencedMap<String, ToDoubleFunction<Latency>> PERCENTILES;

    static {
        var percentiles = new LinkedHashMap<String, ToDoubleFunction<Latency>>();
        percentiles.put("p50", Latency::p50Ms);
        percentiles.put("p95", Latency::p95Ms);
        percentiles.put("p99", Latency::p99Ms);
        percentiles.put("max", Latency::maxMs);
        PERCENTILES = Collections.unmodifiableSequencedMap(percentiles);
    }

    public Latency {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
    }

    /** Reads a histogram recorded in microseconds; an empty one reads as zeros. */
    public static Latency ofMicros(AbstractHistogram histogram) {
        return new Latency(
                histogram.getTotalCount(),
                millis(histogram.getMinValue()),
                round(histogram.getMean() / 1000.0),
                millis(histogram.getValueAtPercentile(50)),
                millis(histogram.getValueAtPercentile(90)),
                millis(histogram.getValueAtPercentile(95)),
                millis(histogram.getValueAtPercentile(99)),
                millis(histogram.getValueAtPercentile(99.9)),
                millis(histogram.getMaxValue()));
    }

    private static double millis(long micros) {
        return round(micros / 1000.0);
    }

    private static double round(double value) {
        return Math.round(value * 100.0) / 100.0;
    }
}
