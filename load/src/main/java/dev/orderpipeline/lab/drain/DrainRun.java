package dev.orderpipeline.lab.drain;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.List;

/**
 * What a drain measured. Times count from the first worker's process start, so they include its JVM and Spring
 * start-up; the ceilings, measured just before and just after (empty when not asked for), bracket the drain because
 * other work on the machine changes over a run.
 *
 * @param prepareSeconds inserting the products and orders (set-based, not part of the drain)
 * @param producedPerSecond how fast the lab's producer filled the topic (acks=all)
 * @param perSecondFromStart commands / startToDrainedSeconds: the drain's headline figure
 * @param decidingSeconds from the first result record to the last (start-up excluded)
 */
public record DrainRun(
        String keys,
        long commands,
        int products,
        int partitions,
        double prepareSeconds,
        double producedPerSecond,
        int workers,
        List<String> workerJvmOptions,
        double startToReadySeconds,
        double startToDrainedSeconds,
        double perSecondFromStart,
        double decidingSeconds,
        double perSecondDeciding,
        List<LagTimeline.Point> curve,
        ResultsScan.Summary results,
        ResourceUsage resources,
        RunVerdict invariants,
        List<CeilingRun> ceilingBefore,
        List<CeilingRun> ceilingAfter) {

    public DrainRun {
        workerJvmOptions = List.copyOf(workerJvmOptions);
        curve = List.copyOf(curve);
        ceilingBefore = List.copyOf(ceilingBefore);
        ceilingAfter = List.copyOf(ceilingAfter);
    }
}
