package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.backlog.WorkerSteps;
import dev.orderpipeline.lab.ceiling.CeilingRun;
import dev.orderpipeline.lab.measure.ResourceUsage;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a drain measured.
 *
 * @param keys the key distribution
 * @param commands commands in the backlog
 * @param products products they went to
 * @param partitions partitions of the command topic
 * @param prepareSeconds inserting the products and orders (set-based, not part of the drain)
 * @param producedPerSecond how fast the lab's producer filled the topic (acks=all)
 * @param workers worker processes that drained
 * @param workerJvmOptions the JVM options the workers ran with
 * @param startToReadySeconds from the first worker's process start to its readiness (JVM and Spring start-up)
 * @param startToDrainedSeconds from the first worker's process start to the group's lag reaching zero
 * @param perSecondFromStart commands / startToDrainedSeconds: what a worker delivers counting its own start, the
 *     drain's headline figure
 * @param decidingSeconds from the first result record to the last (the workers' processing, start-up excluded)
 * @param perSecondDeciding commands decided per second over that window
 * @param curve lag and progress over time, seconds since the first worker's start
 * @param results what the workers published on checkout.results
 * @param resources CPU and memory per kind of process (the lab itself included) over the drain
 * @param server PostgreSQL's commits and WAL flushes during the drain; {@code null} when unreadable
 * @param serverSettings the durability settings of the server
 * @param invariants the database's verdict over the backlog's products
 * @param steps where the workers' time went, from their own meters at the end of the drain
 * @param ceilingBefore the ceiling measured on the same database just before the backlog was prepared; empty when
 *     not asked for
 * @param ceilingAfter the same just after the drain, the workers stopped: other work on the machine changes over a
 *     run, and the two bracket the drain
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
        @Nullable ServerCounters server,
        Map<String, String> serverSettings,
        RunInvariants.Summary invariants,
        WorkerSteps steps,
        List<CeilingRun> ceilingBefore,
        List<CeilingRun> ceilingAfter) {

    public DrainRun {
        workerJvmOptions = List.copyOf(workerJvmOptions);
        curve = List.copyOf(curve);
        serverSettings = new java.util.TreeMap<>(serverSettings);
        ceilingBefore = List.copyOf(ceilingBefore);
        ceilingAfter = List.copyOf(ceilingAfter);
    }
}
