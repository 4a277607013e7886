package dev.orderpipeline.lab.soak;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.drain.CeilingRun;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.TestHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Soak runs and reports as the experiment would leave them, without a stack. */
final class SoakFixtures {

    static final Latency LATENCY = new Latency(3000, 12.5, 25, 40.25, 80);

    static final RunVerdict HELD =
            new RunVerdict(1, 0, 0, 0, 1_000, 1_000, 0, Map.of(), 0, 1_000, 0, 0, 0, 1_000, 0, 0, 0, 0, List.of());

    private SoakFixtures() {}

    static SoakReport report(List<SoakRun> runs, @Nullable CapacityModel capacity, List<String> skipped) {
        var settings = new SoakSettings(
                List.of("db-atomic", "kafka"),
                List.of(KeyDistribution.HOT),
                List.of(100, 200, 400),
                Duration.ofSeconds(3),
                2000,
                Duration.ZERO);
        var header = TestHeaders.of("soak", Duration.ofMinutes(5));
        return new SoakReport(header, settings, runs, skipped, capacity);
    }

    /** 1.5 ms of the API and 3 ms of PostgreSQL per checkout, at every rate; achieved 70 % of the rate if saturated. */
    static SoakRun run(String strategy, String keys, int rate, boolean saturated) {
        var resources = new ResourceUsage(
                List.of(new ResourceUsage.ProcessUsage("order-api", 300, 0.0045 * rate)),
                new ResourceUsage.DatabaseUsage(0.009 * rate, 0.0, 3000L * rate));
        return run(strategy, keys, rate, saturated ? rate * 0.7 : rate - 1, saturated, resources, 3L * rate);
    }

    static SoakRun run(
            String strategy,
            String keys,
            int rate,
            double achieved,
            boolean saturated,
            ResourceUsage resources,
            long decided) {
        return new SoakRun(
                strategy + (keys.equals("hot") ? "" : " " + keys) + " @ " + rate + "/s",
                strategy,
                keys,
                rate,
                UUID.randomUUID(),
                3L * rate,
                3L * rate - 3,
                0,
                0,
                achieved,
                new Latency(3L * rate, 12.5, 60, saturated ? 1500 : 80, 1800),
                strategy.equals("kafka") ? new Latency(3L * rate, 25, 70, 90, 110) : null,
                Map.of(strategy.equals("kafka") ? "202" : "200", 3L * rate - 3, "503", 3L),
                saturated,
                saturated ? List.of("p99 1500 ms over 1000 ms") : List.of(),
                resources,
                strategy.equals("kafka") ? new SoakRun.KafkaFigures(3L * rate - 3, 3L * rate - 3, 120, 40) : null,
                invariants(0, 0),
                CheckoutCost.of(resources, decided));
    }

    /** The same run with the database's verdict {@code invariants}. */
    static SoakRun judged(SoakRun run, RunVerdict invariants) {
        return new SoakRun(
                run.label(),
                run.strategy(),
                run.keys(),
                run.targetRate(),
                run.productId(),
                run.scheduled(),
                run.succeeded(),
                run.errors(),
                run.dropped(),
                run.achievedRate(),
                run.latency(),
                run.finalLatency(),
                run.httpStatuses(),
                run.saturated(),
                run.saturationReasons(),
                run.resources(),
                run.kafka(),
                invariants,
                run.cost());
    }

    /** 260 completed, 40 rejected on one product, {@code notFinal} open and {@code drift} units off. */
    static RunVerdict invariants(long notFinal, long drift) {
        var violations = new ArrayList<String>();
        if (notFinal > 0) {
            violations.add("x: not final: " + notFinal + " orders still CREATED or PROCESSING");
        }
        if (drift != 0) {
            violations.add("x: drift: " + drift);
        }
        return new RunVerdict(
                1,
                violations.isEmpty() ? 0 : 1,
                0,
                drift == 0 ? 0 : 1,
                260,
                260,
                0,
                Map.of(),
                40 - drift,
                300,
                drift,
                0,
                0,
                260,
                0,
                0,
                notFinal,
                0,
                violations);
    }

    /** Over 10 s: order-api 50 % of a core, broker 10 %, worker 5 %, the lab 40 %, PostgreSQL 3 CPU seconds. */
    static ResourceUsage usage(@Nullable Double databaseCpuSeconds) {
        return new ResourceUsage(
                List.of(
                        new ResourceUsage.ProcessUsage(StackTarget.API, 300, 5.0),
                        new ResourceUsage.ProcessUsage(StackTarget.WORKER, 250, 0.5),
                        new ResourceUsage.ProcessUsage(StackTarget.BROKER, 400, 1.0),
                        new ResourceUsage.ProcessUsage(StackTarget.LAB, 200, 4.0)),
                new ResourceUsage.DatabaseUsage(databaseCpuSeconds, 0.25, 8_000_000L));
    }

    /** 10,000 checkouts decided at 1,000/s, kept up. */
    static SoakRun kafkaRun(int rate, boolean saturated) {
        return run("kafka", "hot", rate, 1_000, saturated, usage(3.0), 10_000);
    }

    /** 5,000 checkouts decided at 500/s; PostgreSQL's CPU not read. */
    static SoakRun lockRun(int rate, boolean saturated) {
        return run("db-atomic", "hot", rate, 500, saturated, usage(null), 5_000);
    }

    /** The probes: one partition drained 5,000 commands/s, the hot row 1,200 transactions/s alone, 1,500 on four. */
    static CapacityModel capacity(List<SoakRun> runs) {
        var drain = new CapacityModel.PartitionDrain(100_000, 20.0, 5_000, HELD);
        var alone = new CeilingRun(1, 1, UUID.randomUUID(), 200, 12_000, 12_000, 10.0, 1_200, LATENCY, null, HELD);
        var many = new CeilingRun(1, 4, UUID.randomUUID(), 800, 15_000, 15_000, 10.0, 1_500, LATENCY, null, HELD);
        return CapacityModel.of(runs, drain, List.of(alone, many), 2);
    }
}
