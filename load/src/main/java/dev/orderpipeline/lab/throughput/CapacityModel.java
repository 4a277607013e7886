package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.drain.CeilingRun;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What the run's costs say each strategy would sustain once order-api, the broker, the workers and PostgreSQL each
 * have cores of their own: a component allows {@code cores × 1000 / its CPU ms per checkout} checkouts per second, and
 * one hot product is bound besides by what serializes it, one partition for the pipeline (the drain probe) and the
 * product's row for a lock strategy (the hot-row probe); neither moves with cores. The report writes the assumptions
 * next to the figures.
 *
 * @param machineCores the cores the run's processes shared
 * @param hotRow the hot-row probe, a run per count of writers: the row admits the best of them
 * @param estimates per strategy and key distribution, in the order of the runs
 */
public record CapacityModel(
        List<Integer> cores,
        int machineCores,
        CapacityProbes.PartitionDrain partitionDrain,
        List<CeilingRun> hotRow,
        List<Estimate> estimates) {

    /** The cores per component the model is evaluated for. */
    static final List<Integer> CORES = List.of(1, 2, 4, 8);

    static final String PARTITION = "one partition";
    static final String HOT_ROW = "hot row";

    public CapacityModel {
        cores = List.copyOf(cores);
        hotRow = List.copyOf(hotRow);
        estimates = List.copyOf(estimates);
    }

    /** What the hot row admits: the best of its probe's runs. */
    public double hotRowPerSecond() {
        return best(hotRow);
    }

    private static double best(List<CeilingRun> hotRow) {
        return hotRow.stream().mapToDouble(CeilingRun::perSecond).max().orElse(0);
    }

    /**
     * One strategy on one key distribution.
     *
     * @param cpuMs CPU ms per decided checkout of each component on its path, the mean of its runs (a lock strategy's
     *     path has no broker and no worker)
     * @param labCpuMs the load generator's CPU per checkout, which shared the machine: only in {@code thisMachine}
     * @param rates the sustainable rate with each of {@link #cores} cores per component
     * @param thisMachine the rate the model gives for the run's own machine, every component and the lab on its cores
     * @param measuredPerSecond what the runs decided per sampled second, to hold {@code thisMachine} against
     */
    public record Estimate(
            String strategy,
            String keys,
            int runs,
            Map<String, Double> cpuMs,
            double labCpuMs,
            List<Rate> rates,
            Rate thisMachine,
            double measuredPerSecond) {

        public Estimate {
            cpuMs = Collections.unmodifiableMap(new LinkedHashMap<>(cpuMs));
            rates = List.copyOf(rates);
        }
    }

    /** A sustainable rate and what bounds it: a component, {@link #PARTITION} or {@link #HOT_ROW}. */
    public record Rate(int cores, double perSecond, String bound) {}

    /** The model of the runs that have a cost. */
    static CapacityModel of(
            List<ThroughputRun> runs, CapacityProbes.PartitionDrain drain, List<CeilingRun> hotRow, int machineCores) {
        var groups = runs.stream()
                .filter(run -> run.cost() != null)
                .collect(Collectors.groupingBy(
                        run -> List.of(run.strategy(), run.keys()), LinkedHashMap::new, Collectors.toList()));
        var hotRowPerSecond = best(hotRow);
        var estimates = groups.values().stream()
                .map(group -> estimate(group, drain.perSecond(), hotRowPerSecond, machineCores))
                .toList();
        return new CapacityModel(CORES, machineCores, drain, hotRow, estimates);
    }

    private static Estimate estimate(
            List<ThroughputRun> group, double partitionPerSecond, double hotRowPerSecond, int machineCores) {
        var first = group.getFirst();
        var pipeline = Strategies.KAFKA.equals(first.strategy());
        var path = pipeline ? CheckoutCost.COMPONENTS : List.of(StackTarget.API, CheckoutCost.POSTGRESQL);
        var cpuMs = new LinkedHashMap<String, Double>();
        for (var component : path) {
            var millis = group.stream()
                    .map(run -> Objects.requireNonNull(run.cost())
                            .cpuMsByComponent()
                            .get(component))
                    .filter(Objects::nonNull)
                    .mapToDouble(Double::doubleValue)
                    .average();
            millis.ifPresent(value -> cpuMs.put(component, round(value)));
        }
        var labCpuMs = mean(group, run -> run.labCpuMs() == null ? 0 : run.labCpuMs());
        var serial = ThroughputRun.HOT.equals(first.keys())
                ? Double.valueOf(pipeline ? partitionPerSecond : hotRowPerSecond)
                : null;
        var serialBound = pipeline ? PARTITION : HOT_ROW;
        var rates = CORES.stream()
                .map(cores -> rate(cores, cpuMs, serial, serialBound))
                .toList();
        var shared = new LinkedHashMap<String, Double>();
        shared.put(
                "all", cpuMs.values().stream().mapToDouble(Double::doubleValue).sum() + labCpuMs);
        var thisMachine = rate(machineCores, shared, serial, serialBound);
        return new Estimate(
                first.strategy(),
                first.keys(),
                group.size(),
                cpuMs,
                round(labCpuMs),
                rates,
                thisMachine,
                round(mean(group, run -> run.sampledSeconds() > 0 ? run.decided() / run.sampledSeconds() : 0)));
    }

    /** The smallest of what each component's CPU allows on {@code cores}, and the serial bound when there is one. */
    static Rate rate(int cores, Map<String, Double> cpuMs, @Nullable Double serial, String serialBound) {
        var best = Double.POSITIVE_INFINITY;
        var bound = "none";
        for (var component : cpuMs.entrySet()) {
            if (component.getValue() > 0 && cores * 1000 / component.getValue() < best) {
                best = cores * 1000 / component.getValue();
                bound = component.getKey();
            }
        }
        if (serial != null && serial < best) {
            best = serial;
            bound = serialBound;
        }
        return new Rate(cores, Double.isInfinite(best) ? 0 : Math.round(best), bound);
    }

    private static double mean(List<ThroughputRun> runs, ToDoubleFunction<ThroughputRun> figure) {
        return runs.stream().mapToDouble(figure).average().orElse(0);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
