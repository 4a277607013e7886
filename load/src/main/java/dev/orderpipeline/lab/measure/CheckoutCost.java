package dev.orderpipeline.lab.measure;

import dev.orderpipeline.lab.pipeline.StackTarget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * What one decided checkout (completed or rejected) cost the pipeline during a run: CPU milliseconds of each
 * component, PostgreSQL's lock waits and its WAL. A figure that was not measured is {@code null}; the lab's own JVM
 * (the load generator) is no part of the pipeline and not counted.
 *
 * @param decided the checkouts decided in the run, as the database counts them
 * @param databaseCpuMs all of PostgreSQL's processes: the postmaster and the backends, live and exited
 * @param totalCpuMs the sum of the components measured
 * @param lockWaitMs session-milliseconds PostgreSQL spent waiting on locks (sampled wait events)
 * @param walBytes WAL of the whole server, every database on it, divided by the run's checkouts
 */
public record CheckoutCost(
        long decided,
        @Nullable Double apiCpuMs,
        @Nullable Double brokerCpuMs,
        @Nullable Double workerCpuMs,
        @Nullable Double databaseCpuMs,
        @Nullable Double totalCpuMs,
        @Nullable Double lockWaitMs,
        @Nullable Long walBytes) {

    public static final String POSTGRESQL = "postgresql";

    /** The pipeline's components, in the order tables and charts show them. */
    public static final List<String> COMPONENTS =
            List.of(StackTarget.API, StackTarget.BROKER, StackTarget.WORKER, POSTGRESQL);

    /** The cost of {@code decided} checkouts that used {@code usage}; {@code null} when none was decided. */
    public static @Nullable CheckoutCost of(ResourceUsage usage, long decided) {
        if (decided <= 0) {
            return null;
        }
        var api = perCheckout(processSeconds(usage, StackTarget.API), decided);
        var broker = perCheckout(processSeconds(usage, StackTarget.BROKER), decided);
        var worker = perCheckout(processSeconds(usage, StackTarget.WORKER), decided);
        var database = usage.database();
        var postgres = perCheckout(database.cpuSeconds(), decided);
        var total = Stream.of(api, broker, worker, postgres)
                .filter(Objects::nonNull)
                .reduce(Double::sum)
                .map(CheckoutCost::round)
                .orElse(null);
        var walBytes = database.walBytes();
        return new CheckoutCost(
                decided,
                api,
                broker,
                worker,
                postgres,
                total,
                perCheckout(database.lockWaitSeconds(), decided),
                walBytes == null ? null : Math.round((double) walBytes / decided));
    }

    /** CPU ms per checkout by component, in the order tables and charts show them; unmeasured ones as {@code null}. */
    public Map<String, @Nullable Double> cpuMsByComponent() {
        var components = new LinkedHashMap<String, @Nullable Double>();
        components.put(StackTarget.API, apiCpuMs);
        components.put(StackTarget.BROKER, brokerCpuMs);
        components.put(StackTarget.WORKER, workerCpuMs);
        components.put(POSTGRESQL, databaseCpuMs);
        return components;
    }

    /** CPU seconds of the processes of {@code kind}; {@code null} when none was watched or the report predates it. */
    private static @Nullable Double processSeconds(ResourceUsage usage, String kind) {
        return usage.process(kind).map(ResourceUsage.ProcessUsage::cpuSeconds).orElse(null);
    }

    /** Seconds for all of them to milliseconds for one. */
    private static @Nullable Double perCheckout(@Nullable Double seconds, long decided) {
        return seconds == null ? null : round(seconds * 1000 / decided);
    }

    private static double round(double millis) {
        return Math.round(millis * 1000) / 1000.0;
    }
}
