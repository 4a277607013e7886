package dev.orderpipeline.lab.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.backlog.KeyDistribution;
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
 * A small soak from the packaged jars, end to end: the stack as processes with the lab on, kafka and db-atomic on a
 * hot product and on spread keys for two seconds each after a one-second warm-up, then the capacity model's probes;
 * the report written to disk must say what the database says.
 */
@OnTheSharedLabStack
class SoakEndToEndTests {

    @TempDir
    Path output;

    @Test
    void decidesEveryAnsweredCheckoutChargesTheCpuOfEachComponentAndModelsTheCapacity(SharedLabStack.Lab lab)
            throws Exception {
        var target = lab.target();
        var startedAt = Instant.now();
        var settings = new SoakSettings(
                List.of(Strategies.KAFKA, "db-atomic"),
                List.of(KeyDistribution.HOT, new KeyDistribution.Uniform(20)),
                // the smallest runs whose every component still shows CPU per checkout
                List.of(100),
                Duration.ofSeconds(2),
                // above the 200 arrivals: a first kafka run on a busy machine may answer slowly, and none is dropped
                400,
                Duration.ofSeconds(1));

        var report = new SoakExperiment(target, settings, Progress.silent(), Duration.ofSeconds(60), 3_000)
                .run(() -> lab.header("soak", startedAt));
        ReportWriter.write(report, output);

        var written = ReportWriter.JSON.readValue(
                output.resolve(ReportWriter.JSON_FILE).toFile(), SoakReport.class);
        assertThat(written).isEqualTo(report);
        assertThat(written.runs())
                .extracting(SoakRun::strategy, SoakRun::keys)
                .containsExactly(
                        tuple(Strategies.KAFKA, "hot"),
                        tuple("db-atomic", "hot"),
                        tuple(Strategies.KAFKA, "uniform:20"),
                        tuple("db-atomic", "uniform:20"));
        var checker = new InvariantChecker(lab.stack().dataSource());
        for (var run : written.runs()) {
            assertThat(run.invariants().holds())
                    .as(run.label() + ": " + run.invariants().violations() + ", " + run.httpStatuses() + ", "
                            + run.errors() + " errors of " + run.scheduled() + ", dropped " + run.dropped())
                    .isTrue();
            // every checkout sent and answered, every answered one decided, and the stock large enough that none was
            // rejected
            assertThat(run.succeeded()).as(run.label() + " answered").isEqualTo(run.scheduled());
            assertThat(run.invariants().completed())
                    .as(run.label() + " completed")
                    .isEqualTo(run.succeeded());
            if (run.keys().equals("hot")) {
                var truth = checker.check(run.productId(), (int) run.scheduled());
                assertThat(truth.holds())
                        .as(run.label() + ": " + truth.violations())
                        .isTrue();
                assertThat(truth.completedOrders())
                        .as(run.label() + " completed")
                        .isEqualTo(run.succeeded());
            }
            assertThat(run.cost()).as(run.label() + " cost").isNotNull();
            assertThat(run.cost().cpuMsByComponent())
                    .as(run.label() + " CPU per checkout")
                    .hasEntrySatisfying(
                            StackTarget.API, millis -> assertThat(millis).isPositive())
                    .hasEntrySatisfying(
                            CheckoutCost.POSTGRESQL,
                            millis -> assertThat(millis).isPositive());
        }
        var kafka = written.runs().getFirst();
        assertThat(kafka.httpStatuses()).containsOnlyKeys("202");
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
        assertThat(capacity.hotRow())
                .extracting(CeilingRun::writers)
                .containsExactlyElementsOf(CapacityModel.HOT_ROW_WRITERS);
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

        for (var file : List.of(ReportWriter.JSON_FILE, ReportWriter.MARKDOWN_FILE)) {
            assertThat(output.resolve(file)).isNotEmptyFile();
        }
        // one rate: no chart by rate; the costs are a table
        assertThat(output.resolve(ReportWriter.MARKDOWN_FILE)).content().contains("## " + CheckoutCosts.TITLE);
    }
}
