package dev.orderpipeline.lab.drain;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.List;

/**
 * What a drain measured. Times count from the first worker's process start, so they include its JVM and Spring
 * start-up; the ceilings, measured just before and just after (empty when not asked for), bracket the drain because
 * other work on the machine changes over a run.
 *
 * @param perSecondFromStart commands / seconds from the first worker's start to lag zero: the drain's headline figure
 * @param decidingSeconds from the first result record to the last (start-up excluded)
 */
public record DrainRun(
        long commands,
        List<String> workerJvmOptions,
        double startToReadySeconds,
        double perSecondFromStart,
        double decidingSeconds,
        double perSecondDeciding,
        ResultsScan.Summary results,
        ResourceUsage resources,
        RunVerdict invariants,
        List<CeilingRun> ceilingBefore,
        List<CeilingRun> ceilingAfter) {

    public DrainRun {
        workerJvmOptions = List.copyOf(workerJvmOptions);
        ceilingBefore = List.copyOf(ceilingBefore);
        ceilingAfter = List.copyOf(ceilingAfter);
    }
}
