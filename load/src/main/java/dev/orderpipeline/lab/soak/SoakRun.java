package dev.orderpipeline.lab.soak;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One strategy at one rate and key distribution ({@code hot}, {@code uniform:N}, {@code zipf:N:s}).
 *
 * @param label {@code strategy @ rate/s}, with the key distribution when it is not the hot product
 * @param productId the hot product, or the most popular one of spread keys
 * @param errors other answers than 2xx, timeouts and I/O errors
 * @param dropped arrivals not sent because {@code maxInFlight} requests were in flight
 * @param achievedRate 2xx answers per second, over the scheduled duration or until the last answer if later
 * @param latency from each request's scheduled start to its answer
 * @param finalLatency kafka: from the scheduled start to the result on {@code checkout.results}; {@code null}
 *     otherwise or when the lab could not read it
 * @param saturationReasons why the strategy did not keep up, in words; empty when it did
 * @param kafka kafka only: acceptances against decisions and the workers' lag
 * @param invariants the database's verdict once the run's orders were final
 * @param cost per checkout the database counts decided; {@code null} when none was decided or in reports that
 *     predate it
 */
public record SoakRun(
        String label,
        String strategy,
        String keys,
        int targetRate,
        UUID productId,
        long scheduled,
        long succeeded,
        long errors,
        long dropped,
        double achievedRate,
        Latency latency,
        @Nullable Latency finalLatency,
        Map<String, Long> httpStatuses,
        boolean saturated,
        List<String> saturationReasons,
        ResourceUsage resources,
        @Nullable KafkaFigures kafka,
        RunVerdict invariants,
        @Nullable CheckoutCost cost) {

    public SoakRun {
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
        saturationReasons = List.copyOf(saturationReasons);
    }

    /**
     * Whether the workers kept up with what the API accepted (202s against results on checkout.results).
     *
     * @param maxLag the workers' consumer group lag at its highest (sampled every second)
     */
    public record KafkaFigures(long accepted, long decided, long maxLag, long lagAtLastArrival) {

        /** Bounded lag: at the last arrival, at most about a second of arrivals were waiting. */
        public boolean keptUp(int rate) {
            return decided >= accepted && lagAtLastArrival <= Math.max(rate, 100);
        }
    }
}
