package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.backlog.RunInvariants;
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
 * @param label {@code strategy @ rate/s}, with the key distribution when it is not the hot product
 * @param strategy the strategy
 * @param keys the key distribution ({@code hot}, {@code uniform:N}, {@code zipf:N:s})
 * @param products products the checkouts went to
 * @param targetRate arrivals per second scheduled
 * @param durationSeconds how long arrivals were scheduled
 * @param productId the hot product, or the most popular one of spread keys
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
 * @param resources what the processes used, the lab's own JVM included
 * @param kafka kafka only: acceptances against decisions and the workers' lag; {@code null} otherwise
 * @param invariants the database's verdict over the run's products once their orders were final; {@code null}
 *     without database access
 */
public record SoakRun(
        String label,
        String strategy,
        String keys,
        int products,
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
        ResourceUsage resources,
        @Nullable KafkaFigures kafka,
        RunInvariants.@Nullable Summary invariants) {

    public SoakRun {
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
        timeline = List.copyOf(timeline);
        saturationReasons = List.copyOf(saturationReasons);
    }

    /**
     * Whether the workers kept up with what the API accepted.
     *
     * @param accepted checkouts answered 202
     * @param decided results that reached the lab on checkout.results
     * @param maxLag the workers' consumer group lag at its highest (sampled every second)
     * @param lagAtLastArrival the lag when the last checkout was due
     * @param secondsToZeroLag from the last arrival to a lag of zero; {@code null} if it was not seen
     * @param lag the lag per second of the run
     */
    public record KafkaFigures(
            long accepted,
            long decided,
            long maxLag,
            long lagAtLastArrival,
            @Nullable Double secondsToZeroLag,
            List<Long> lag) {

        public KafkaFigures {
            lag = List.copyOf(lag);
        }

        /** Bounded lag: at the last arrival, at most about a second of arrivals were waiting. */
        public boolean keptUp(int rate) {
            return decided >= accepted && lagAtLastArrival <= Math.max(rate, 100);
        }
    }

    /**
     * One second of a run: requests started in it (by schedule), answered in it, and the latency of those answers.
     *
     * @param second seconds since the first scheduled arrival
     * @param started requests sent whose arrival was due in this second
     * @param succeeded 2xx answers received in this second
     * @param errors other answers received in this second
     * @param dropped arrivals due in this second that were not sent
     * @param decided kafka: results that reached the lab in this second
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
            long decided,
            double p50Ms,
            double p99Ms,
            double maxMs) {}
}
