package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.drain.CeilingRun;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Recorded samples as the loop and the sampler would leave them, without a stack. */
final class ThroughputFixtures {

    static final Latency LATENCY = new Latency(3000, 1, 10, 12.5, 20, 25, 40.25, 60, 80);

    private ThroughputFixtures() {}

    /** Over 10 s: order-api 50 % of a core, broker 10 %, worker 5 %, the lab 40 %, PostgreSQL 3 CPU seconds. */
    static ResourceUsage usage(@Nullable Double databaseCpuSeconds) {
        return new ResourceUsage(
                List.of(
                        new ResourceUsage.ProcessUsage(StackTarget.API, 1, 50, 90, 300, 5.0),
                        new ResourceUsage.ProcessUsage(StackTarget.WORKER, 1, 5, 20, 250, 0.5),
                        new ResourceUsage.ProcessUsage(StackTarget.BROKER, 1, 10, 30, 400, 1.0),
                        new ResourceUsage.ProcessUsage(ThroughputExperiment.LAB, 1, 40, 80, 200, 4.0)),
                new ResourceUsage.DatabaseUsage(12, 30.0, 60.0, databaseCpuSeconds, 0.25, 8_000_000L),
                50);
    }

    static ClosedLoop.Prepared prepared(int orders) {
        return new ClosedLoop.Prepared(
                Map.of(UUID.fromString("00000000-0000-4000-8000-000000000001"), orders),
                java.util.stream.IntStream.range(0, orders)
                        .mapToObj(index -> new UUID(0x4000L, index))
                        .toList(),
                java.util.stream.IntStream.range(0, orders)
                        .mapToObj(index -> "u-" + index)
                        .toList());
    }

    /** 10,000 checkouts answered 202 in 8 s, 400 not final at the stop and final 1.24 s later, sampled 10 s. */
    static ThroughputRun kafkaRun(String label) {
        var loop = new ClosedLoop.Result(10_000, Map.of("202", 10_000L), LATENCY, 8.0, false);
        var invariants =
                new RunInvariants.Summary(1, 0, 10_000, 0, 0, 10_000, 2_050, 12_050, 0, 0, 0, 0, 10_000, List.of());
        return ThroughputRun.of(
                label,
                "kafka",
                1,
                "hot",
                prepared(12_050),
                loop,
                new ThroughputRun.Tail(400, 1.24, 10_000),
                usage(3.0),
                10.0,
                invariants);
    }

    static ThroughputRun lockRun(String label) {
        var loop = new ClosedLoop.Result(5_000, Map.of("200", 5_000L), LATENCY, 10.0, true);
        return ThroughputRun.of(
                label,
                "db-atomic",
                1,
                "hot",
                prepared(5_000),
                loop,
                new ThroughputRun.Tail(0, 0, 5_000),
                usage(null),
                10.0,
                new RunInvariants.Summary(1, 0, 5_000, 0, 0, 5_000, 0, 5_000, 0, 0, 0, 0, 5_000, List.of()));
    }

    static final RunInvariants.Summary HELD =
            new RunInvariants.Summary(1, 0, 1_000, 0, 0, 1_000, 0, 1_000, 0, 0, 0, 0, 1_000, List.of());

    /** The probes: one partition drained 5,000 commands/s, the hot row 1,200 transactions/s alone, 1,500 on four. */
    static CapacityModel capacity(List<ThroughputRun> runs) {
        var drain = new CapacityProbes.PartitionDrain(100_000, 20.0, 5_000, HELD);
        var alone =
                new CeilingRun(1, 1, UUID.randomUUID(), 200, 12_000, 12_000, 10.0, 1_200, 833.3, LATENCY, null, HELD);
        var many =
                new CeilingRun(1, 4, UUID.randomUUID(), 800, 15_000, 15_000, 10.0, 1_500, 666.7, LATENCY, null, HELD);
        return CapacityModel.of(runs, drain, List.of(alone, many), 2);
    }

    static ThroughputReport report(List<ThroughputRun> runs) {
        return report(runs, null);
    }

    static ThroughputReport report(List<ThroughputRun> runs, @Nullable CapacityModel capacity) {
        var settings = new ThroughputSettings(
                List.of("kafka", "db-atomic"),
                List.of("hot"),
                50,
                Duration.ofSeconds(8),
                Duration.ofSeconds(2),
                Duration.ZERO,
                1,
                5000,
                100_000,
                List.of(1, 4));
        var header = new ReportHeader(
                "throughput",
                Map.of("loadAverage", "at start 1.00 0.50 0.20; at end 2.00 1.00 0.50"),
                new Machine(2, 4096, "test cpu", "Linux", "JDK 25"),
                Map.of(),
                Instant.parse("2025-01-01T00:00:00Z"),
                Instant.parse("2025-01-01T00:01:00Z"));
        return new ThroughputReport(header, settings, runs, List.of("naive"), capacity);
    }
}
