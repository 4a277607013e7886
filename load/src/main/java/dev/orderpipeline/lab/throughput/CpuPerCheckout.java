package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * CPU milliseconds per decided checkout: what each component used over a run (the loop and the wait until every
 * decided order was final), divided by the checkouts it decided.
 *
 * @param components by kind, in the order of {@link #COMPONENTS}; a component the lab could not see is missing
 * @param total the components together
 * @param lab the lab's own JVM, the load generator: not part of the total
 */
public record CpuPerCheckout(
        Map<String, Double> components,
        double total,
        @Nullable Double lab) {

    static final String POSTGRESQL = "postgresql";

    /** The kind under which the sampler watches the lab's own JVM. */
    static final String LAB = "lab";

    /** The pipeline's components, as the tables and the chart show them. */
    static final List<String> COMPONENTS = List.of(StackTarget.API, StackTarget.BROKER, StackTarget.WORKER, POSTGRESQL);

    public CpuPerCheckout {
        components = new LinkedHashMap<>(components);
    }

    /**
     * @param seconds the time the sampler ran, over which it averaged each kind's CPU
     * @param decided checkouts decided in that time
     */
    static CpuPerCheckout of(ResourceUsage usage, double seconds, long decided) {
        var cpuSeconds = new LinkedHashMap<String, Double>();
        for (var kind : COMPONENTS) {
            usage.processes().stream()
                    .filter(process -> process.kind().equals(kind))
                    .findFirst()
                    .ifPresent(process -> cpuSeconds.put(kind, process.cpuAvgPercent() / 100 * seconds));
        }
        var database = usage.database().cpuSeconds();
        if (database != null) {
            cpuSeconds.put(POSTGRESQL, database);
        }
        var lab = usage.processes().stream()
                .filter(process -> process.kind().equals(LAB))
                .findFirst()
                .map(process -> millis(process.cpuAvgPercent() / 100 * seconds, decided))
                .orElse(null);
        var components = new LinkedHashMap<String, Double>();
        cpuSeconds.forEach((kind, used) -> components.put(kind, millis(used, decided)));
        var total = millis(
                cpuSeconds.values().stream().mapToDouble(Double::doubleValue).sum(), decided);
        return new CpuPerCheckout(components, total, lab);
    }

    /** Milliseconds per checkout to three decimals; 0 when nothing was decided. */
    private static double millis(double cpuSeconds, long decided) {
        return decided == 0 ? 0 : Math.round(cpuSeconds * 1000 / decided * 1000) / 1000.0;
    }
}
