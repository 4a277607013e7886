package dev.orderpipeline.lab.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.drain.CeilingRun;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.OnTheSharedLabStack;
import dev.orderpipeline.lab.pipeline.SharedLabStack;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small throughput run from the packaged jars, end to end: the stack as processes with the lab on, kafka and
 * db-atomic on a hot product and on spread keys for a few seconds each after a short warm-up, then the capacity
 * model's probes; the report written to disk must say what the database says.
 */
@OnTheSharedLabStack
class ThroughputEndToEndTests {

    @TempDir
    Path output;

    @Test
    void decidesEveryAnsweredCheckoutAndChargesTheCpuOfEachComponentToThem(SharedLabStack.Lab lab) throws Exception {
        var stack = lab.stack();
        var target = lab.target();
        var startedAt = Instant.now();
        var strategies = List.of(Strategies.KAFKA, "db-atomic");
        var keys = List.of("hot", "uniform:20");
        var settings = new ThroughputSettings(
                strategies,
                keys,
                8,
                // the smallest runs whose every component still shows CPU per checkout: two seconds each
                Duration.ofSeconds(2),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                1,
                1000,
                3_000,
                List.of(1, 4));

        ThroughputReport report;
        var outcome = new ThroughputExperiment(target, settings, Progress.silent()).run();
        var header = lab.header("throughput", startedAt);
        report = new ThroughputReport(header, settings, outcome.runs(), outcome.skipped(), outcome.capacity());
        ReportWriter.write(report, output);

        var written = ReportWriter.JSON.readValue(
                output.resolve(ReportWriter.JSON_FILE).toFile(), ThroughputReport.class);
        assertThat(written).isEqualTo(report);
        assertThat(written.runs())
                .extracting(ThroughputRun::strategy, ThroughputRun::keys)
                .containsExactly(
                        tuple(Strategies.KAFKA, "hot"),
                        tuple("db-atomic", "hot"),
                        tuple(Strategies.KAFKA, "uniform:20"),
                        tuple("db-atomic", "uniform:20"));
        var database = stack.dataSource();
        var checker = new InvariantChecker(database);
        for (var run : written.runs()) {
            assertThat(run.invariants()).isNotNull();
            assertThat(run.invariants().holds()).as(run.label()).isTrue();
            // every answered checkout decided, and the stock large enough that none was rejected
            assertThat(run.sent()).as(run.label() + " sent").isPositive();
            assertThat(run.invariants().completed())
                    .as(run.label() + " completed")
                    .isEqualTo(run.sent());
            if (run.productId() != null) {
                var truth = checker.check(run.productId(), run.orders());
                assertThat(truth.holds())
                        .as(run.label() + ": " + truth.violations())
                        .isTrue();
                assertThat(truth.completedOrders())
                        .as(run.label() + " completed")
                        .isEqualTo(run.sent());
            }
            assertThat(run.decided()).isEqualTo(run.sent());
            assertThat(run.latency().count()).isEqualTo(run.sent());
            assertThat(run.checkoutsPerSecond()).isPositive();
            assertThat(run.ranOut()).isFalse();
            assertThat(run.cost()).as(run.label() + " cost").isNotNull();
            assertThat(run.cost().cpuMsByComponent())
                    .as(run.label() + " CPU per checkout")
                    .hasEntrySatisfying(
                            StackTarget.API, millis -> assertThat(millis).isPositive())
                    .hasEntrySatisfying(
                            CheckoutCost.POSTGRESQL,
                            millis -> assertThat(millis).isPositive());
            assertThat(run.labCpuMs()).isPositive();
        }
        var kafka = written.runs().getFirst();
        assertThat(kafka.httpStatuses()).containsOnlyKeys("202");
        assertThat(kafka.cost()).isNotNull();
        assertThat(kafka.cost().cpuMsByComponent())
                .hasEntrySatisfying(
                        StackTarget.BROKER, millis -> assertThat(millis).isPositive())
                .hasEntrySatisfying(
                        StackTarget.WORKER, millis -> assertThat(millis).isPositive());
        assertThat(written.runs().get(1).httpStatuses()).containsOnlyKeys("200");

        // the probes ran on the stack and left it consistent; the model bounds only the hot product by them
        var capacity = written.capacity();
        assertThat(capacity).isNotNull();
        assertThat(capacity.partitionDrain().commands()).isEqualTo(3_000);
        assertThat(capacity.partitionDrain().perSecond()).isPositive();
        assertThat(capacity.partitionDrain().invariants().holds()).isTrue();
        assertThat(capacity.hotRow()).extracting(CeilingRun::writers).containsExactly(1, 4);
        for (var hotRow : capacity.hotRow()) {
            assertThat(hotRow.perSecond()).isPositive();
            assertThat(hotRow.invariants().holds()).isTrue();
        }
        assertThat(capacity.estimates())
                .extracting(CapacityModel.Estimate::strategy, CapacityModel.Estimate::keys)
                .containsExactly(
                        tuple(Strategies.KAFKA, "hot"),
                        tuple("db-atomic", "hot"),
                        tuple(Strategies.KAFKA, "uniform:20"),
                        tuple("db-atomic", "uniform:20"));
        for (var estimate : capacity.estimates()) {
            assertThat(estimate.rates())
                    .extracting(CapacityModel.Rate::perSecond)
                    .allMatch(rate -> rate > 0);
            if (!estimate.keys().equals("hot")) {
                assertThat(estimate.rates())
                        .extracting(CapacityModel.Rate::bound)
                        .doesNotContain(CapacityModel.PARTITION, CapacityModel.HOT_ROW);
            }
        }

        for (var file : List.of(
                ReportWriter.JSON_FILE,
                ReportWriter.MARKDOWN_FILE,
                ReportWriter.HTML_FILE,
                CheckoutCosts.CHART_FILE + ".png",
                CapacityTables.CHART_FILE + ".png")) {
            assertThat(output.resolve(file)).isNotEmptyFile();
        }
    }
}
