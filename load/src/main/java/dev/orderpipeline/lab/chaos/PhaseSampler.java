package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.measure.ResourceSampler.Watched;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.measure.ResourceUsage.DatabaseUsage;
import dev.orderpipeline.lab.measure.ResourceUsage.ProcessUsage;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What the pipeline used in each phase of a chaos run (the load cut at each fault's start, as the report cuts it),
 * for the cost per checkout of each. A {@link ResourceSampler} watches the processes it was started with, and a
 * fault replaces some (a worker or the broker restarted, PostgreSQL restarted, the replay's own worker): so the
 * sampling is cut where a fault changed them too, each segment watching the processes alive when it starts, and a
 * process that started during a segment has its CPU from its start added at the segment's end.
 */
final class PhaseSampler implements AutoCloseable {

    private final StackTarget target;
    private final List<ResourceUsage> phases = new ArrayList<>();
    private final List<ResourceUsage> segments = new ArrayList<>();
    /** CPU seconds by kind of the processes that started during the phase's segments, up to each segment's end. */
    private final Map<String, Double> startedCpu = new LinkedHashMap<>();

    private List<Watched> watched = List.of();
    private @Nullable ResourceSampler sampler;

    private PhaseSampler(StackTarget target) {
        this.target = target;
    }

    /** Starts the first phase, the load before any fault. */
    static PhaseSampler start(StackTarget target) {
        var phases = new PhaseSampler(target);
        phases.startSegment();
        return phases;
    }

    /** A fault starts: ends the phase and begins the next. */
    void nextPhase() {
        endSegment();
        endPhase();
        startSegment();
    }

    /** Within the phase, a fault started or stopped processes: the ones alive now are watched from now on. */
    void processesChanged() {
        endSegment();
        startSegment();
    }

    /** Ends the last phase; what each phase used, in order. */
    List<ResourceUsage> stop() {
        endSegment();
        endPhase();
        return List.copyOf(phases);
    }

    @Override
    public void close() {
        if (sampler != null) {
            sampler.close();
        }
    }

    private void startSegment() {
        watched = target.processes();
        sampler = ResourceSampler.start(watched, target.database(), ResourceSampler.DEFAULT_INTERVAL);
    }

    private void endSegment() {
        segments.add(Objects.requireNonNull(sampler).stop());
        sampler = null;
        var before = watched.stream().map(Watched::pid).collect(Collectors.toSet());
        for (var process : target.processes()) {
            if (!before.contains(process.pid())) {
                ProcessHandle.of(process.pid())
                        .flatMap(handle -> handle.info().totalCpuDuration())
                        .ifPresent(cpu -> startedCpu.merge(process.kind(), cpu.toMillis() / 1000.0, Double::sum));
            }
        }
    }

    private void endPhase() {
        phases.add(merged(segments, startedCpu));
        segments.clear();
        startedCpu.clear();
    }

    /**
     * A phase's segments as one usage, with the figures a cost reads: CPU seconds of each kind summed (a segment in
     * which none of a kind ran adds none) with those of the processes started during them, PostgreSQL's figures
     * summed, unknown if a segment could not measure one (the WAL of a segment whose server restarted). Counts,
     * averages, peaks and memory are left at 0 or unknown: nothing shows them.
     */
    static ResourceUsage merged(List<ResourceUsage> segments, Map<String, Double> startedCpu) {
        var cpu = new LinkedHashMap<>(startedCpu);
        segments.forEach(segment -> segment.processes()
                .forEach(process ->
                        cpu.merge(process.kind(), Objects.requireNonNullElse(process.cpuSeconds(), 0.0), Double::sum)));
        var databases = segments.stream().map(ResourceUsage::database).toList();
        var walBytes = sum(databases, DatabaseUsage::walBytes);
        return new ResourceUsage(
                cpu.entrySet().stream()
                        .map(kind -> new ProcessUsage(kind.getKey(), 0, 0, 0, 0, kind.getValue()))
                        .toList(),
                new DatabaseUsage(
                        null,
                        null,
                        null,
                        sum(databases, DatabaseUsage::cpuSeconds),
                        sum(databases, DatabaseUsage::lockWaitSeconds),
                        walBytes == null ? null : Math.round(walBytes)),
                segments.stream().mapToInt(ResourceUsage::samples).sum());
    }

    /** The sum, unknown if one of the values is. */
    private static <T> @Nullable Double sum(List<T> values, Function<T, ? extends @Nullable Number> figure) {
        var known = values.stream().map(figure).filter(Objects::nonNull).toList();
        return known.size() < values.size()
                ? null
                : known.stream().mapToDouble(Number::doubleValue).sum();
    }
}
