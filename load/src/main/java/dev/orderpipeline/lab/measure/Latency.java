package dev.orderpipeline.lab.measure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.function.ToDoubleFunction;

/**
 * The percentiles the reports show of one latency distribution, in milliseconds (two decimals), and how many values
 * were recorded.
 */
public record Latency(long count, double p50Ms, double p95Ms, double p99Ms, double maxMs) {

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
}
