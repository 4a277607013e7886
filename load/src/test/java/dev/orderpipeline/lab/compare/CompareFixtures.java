package dev.orderpipeline.lab.compare;

import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.report.TestHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Reports with made-up figures, for tests of how they are shown and written. */
final class CompareFixtures {

    private CompareFixtures() {}

    /** The verdict on a run on one product in which every checkout was accepted. */
    static RunVerdict columns(InvariantReport report) {
        return RunVerdict.of(List.of(report));
    }

    static StrategyRun run(String strategy, RunVerdict invariants) {
        var kafka = strategy.equals("kafka");
        var answer = new Latency(300, 50, 300, 2170, 2500);
        var resources = new ResourceUsage(
                List.of(
                        new ResourceUsage.ProcessUsage("order-api", 281, 1.66),
                        new ResourceUsage.ProcessUsage("checkout-worker", 250, 0.125)),
                new ResourceUsage.DatabaseUsage(3.56, 0.75, 120_000L));
        return new StrategyRun(
                strategy,
                strategy,
                List.of(UUID.randomUUID()),
                invariants,
                2.5,
                120.0,
                answer,
                // a synchronous strategy's answer is its outcome, as the experiment records it
                kafka ? new Latency(300, 850, 1600, 1900, 2100) : answer,
                kafka ? 0L : null,
                false,
                Map.of(kafka ? "202" : "200", 300L),
                resources,
                CheckoutCost.of(resources, invariants.completed() + invariants.rejected()),
                null);
    }

    static CompareReport report(StrategyRun... runs) {
        return report(
                new CompareSettings(100, 300, List.of("naive", "kafka"), 1, null, Duration.ofMinutes(2), 0, null),
                new SkippedStrategy("naive-tx", "unknown"),
                runs);
    }

    static CompareReport report(CompareSettings settings, SkippedStrategy skipped, StrategyRun... runs) {
        var header = TestHeaders.of(
                "compare", Map.of("mode", "started by the lab", "apiReplicas", "1"), Duration.ofMinutes(1));
        return new CompareReport(header, settings, List.of(runs), List.of(skipped));
    }
}
