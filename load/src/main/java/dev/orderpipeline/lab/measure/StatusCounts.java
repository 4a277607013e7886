package dev.orderpipeline.lab.measure;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** How often each answer came back: HTTP status codes, and {@code timeout} or {@code io-error} when none did. */
public final class StatusCounts {

    public static final String TIMEOUT = "timeout";
    public static final String IO_ERROR = "io-error";

    /**
     * The pipeline's 409 {@code sold-out}, refused at the API's door: a final answer, but one that leaves the order
     * CREATED, unlike a lock strategy's 409, whose order the database has rejected.
     */
    public static final String SOLD_OUT = "409 sold-out";

    /**
     * order-api's 503 {@code checkout-outcome-unknown}: the broker did not confirm the command in time and may still
     * have taken it, so the server may decide the order later, as after a client timeout.
     */
    public static final String OUTCOME_UNKNOWN = "503 outcome-unknown";

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    public void add(String status) {
        counts.computeIfAbsent(status, key -> new LongAdder()).increment();
    }

    /** The counts so far, sorted by status (codes first, then the words). */
    public Map<String, Long> snapshot() {
        var sorted = new TreeMap<String, Long>();
        counts.forEach((status, count) -> sorted.put(status, count.sum()));
        return sorted;
    }
}
