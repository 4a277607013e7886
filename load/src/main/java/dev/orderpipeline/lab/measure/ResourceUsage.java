package dev.orderpipeline.lab.measure;

import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What the processes under test used during a run, sampled from {@code /proc} every ~200 ms.
 *
 * @param processes per kind of app process (order-api, checkout-worker, kafka-broker); empty when the lab did not
 *     start them
 */
public record ResourceUsage(List<ProcessUsage> processes, DatabaseUsage database) {

    public ResourceUsage {
        processes = List.copyOf(processes);
    }

    /**
     * One kind of process ({@code order-api}): the largest resident set of any one of them and their CPU time together.
     *
     * @param cpuSeconds CPU time of all of them over the run; {@code null} in reports written before it was kept
     */
    public record ProcessUsage(
            String kind, double rssMaxMiB, @Nullable Double cpuSeconds) {}

    /**
     * PostgreSQL during the run; a figure the lab could not read is {@code null} (shown as n/a).
     *
     * @param cpuSeconds CPU time of all server processes (postmaster and its children) over the run
     * @param lockWaitSeconds session-seconds spent waiting on a lock, estimated: at each sample the sessions of the
     *     run's database whose {@code wait_event_type} is {@code Lock}, times the time since the previous sample
     * @param walBytes WAL written from the first sample to the last, by the whole server (every database on it)
     */
    public record DatabaseUsage(
            @Nullable Double cpuSeconds,
            @Nullable Double lockWaitSeconds,
            @Nullable Long walBytes) {}

    /** The processes of {@code kind}; empty when none was watched. */
    public Optional<ProcessUsage> process(String kind) {
        return processes.stream().filter(process -> process.kind().equals(kind)).findFirst();
    }
}
