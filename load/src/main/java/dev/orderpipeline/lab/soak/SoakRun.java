package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One strategy at one rate.
 *
 * @param label {@code strategy @ rate/s}
 * @param strategy the strategy
 * @param targetRate arrivals per second scheduled
 * @param durationSeconds how long arrivals were scheduled
 * @param productId the hot product
 * @param scheduled arrivals due
 * @param started requests sent
 * @param succeeded 2xx answers
 * @param errors other answers, timeouts and I/O errors
 * @param dropped arrivals not sent because {@code maxInFlight} requests were in flight
 * @param achievedRate 2xx answers per second, over the scheduled duration or until the last answer if later
 * @param latency from each request's scheduled start to its answer
 * @param finalLatency kafka: from the scheduled start to the result on {@code checkout.results}; {@code null}
 *     otherwise or when the lab could not read it
 * @param httpStatuses answers by status
 * @param timeline per second of the run
 * @param saturated whether the strategy did not keep up with this rate
 * @param saturationReasons why, in words; empty when it kept up
 * @param resources what the processes used
 */
public record SoakRun(
        String label,
        String strategy,
        int targetRate,
        double durationSeconds,
        UUID productId,
        long scheduled,
        long started,
        long succeeded,
        long errors,
        long dropped,
        double achievedRate,
        Latency latency,
        @Nullable Latency finalLatency,
        Map<String, Long> httpStatuses,
        List<SoakSecond> timeline,
        boolean saturated,
        List<String> saturationReasons,
        ResourceUsage resources) {

    public SoakRun {
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
        timeline = List.copyOf(timeline);
        saturationReasons = List.copyOf(saturationReasons);
    }

    /**
     * One second of a run: requests started in it (by schedule), answered in it, and the latency of those answers.
     *
     * @param second seconds since the first scheduled arrival
     * @param started requests sent whose arrival was due in this second
     * @param succeeded 2xx answers received in this second
     * @param errors other answers received in this second
     * @param dropped arrivals due in this second that were not sent
     * @param p50Ms median latency of the answers received in this second
     * @param p99Ms their 99th percentile
     * @param maxMs their maximum
     */
    public record SoakSecond(
            int second,
            long started,
            long succeeded,
            long errors,
            long dropped,
            double p50Ms,
            double p99Ms,
            double maxMs) {}
}
