package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.StatusCounts;
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
 * A small compare from the packaged jars, end to end: the stack as processes with the lab on, 50 buyers on 20 units,
 * kafka and db-atomic; the report written to disk must say what the database says.
 */
@OnTheSharedLabStack
class CompareEndToEndTests {

    private static final int INITIAL_STOCK = 20;

    private static final int PARALLEL = 50;

    @TempDir
    Path output;

    @Test
    void reportsTheInvariantsTheDatabaseHoldsAndWritesTheReportFiles(SharedLabStack.Lab lab) throws Exception {
        var stack = lab.stack();
        assertThat(lab.target().apis().getFirst().supportsStrategy("db-atomic")).isTrue();
        var settings = new CompareSettings(
                INITIAL_STOCK,
                PARALLEL,
                List.of(Strategies.KAFKA, "db-atomic"),
                1,
                null,
                Duration.ofSeconds(60),
                10,
                null);

        var written = runAndReadBack(lab, settings, output);

        var database = stack.dataSource();
        var checker = new InvariantChecker(database);
        for (var run : written.runs()) {
            var truth = checker.check(run.productIds().getFirst(), INITIAL_STOCK);
            var columns = run.invariants();
            assertThat(columns.completed()).as(run.label() + " completed").isEqualTo(truth.completedOrders());
            assertThat(columns.stockLeft()).as(run.label() + " stock left").isEqualTo(truth.stockLeft());
            assertThat(columns.drift()).as(run.label() + " drift").isEqualTo(truth.drift());
            assertThat(columns.doublePayments())
                    .as(run.label() + " double payments")
                    .isEqualTo(truth.doublePayments());
            assertThat(columns.oversold()).as(run.label() + " oversell").isEqualTo(truth.oversold());
            // the database's open orders are the report's not final and not checked out (refused, so never accepted)
            assertThat(columns.notFinal() + columns.notCheckedOut())
                    .as(run.label() + " open orders")
                    .isEqualTo(truth.ordersNotFinal());
            // both strategies are correct ones: the whole stock sold, nothing more. A checkout that order-api refused
            // at its sold-out door (409 sold-out: on a slow machine the worker's first batch can sell out before the
            // last buyers arrive) leaves its order CREATED, not accepted, so not final and nothing else
            var refusedAtTheDoor = run.httpStatuses().getOrDefault(StatusCounts.SOLD_OUT, 0L);
            assertThat(truth.ordersNotFinal())
                    .as(run.label() + " refused at the door")
                    .isEqualTo(refusedAtTheDoor);
            assertThat(truth.violations(refusedAtTheDoor))
                    .as(run.label() + ": " + truth.violations())
                    .isEmpty();
            assertThat(columns.notCheckedOut())
                    .as(run.label() + " not checked out")
                    .isEqualTo(refusedAtTheDoor);
            assertThat(columns.notFinal())
                    .as(run.label() + " accepted and not final")
                    .isZero();
            assertThat(columns.holds())
                    .as(run.label() + ": " + columns.violations())
                    .isTrue();
            assertThat(truth.completedQuantity()).isEqualTo(INITIAL_STOCK);
            assertThat(run.httpStatuses().values().stream()
                            .mapToLong(Long::longValue)
                            .sum())
                    .isEqualTo(PARALLEL);
            assertThat(run.checkoutLatency().count()).isEqualTo(PARALLEL);
            assertThat(run.finalLatency()).isNotNull();
            assertThat(run.resources().processes())
                    .extracting(usage -> usage.kind())
                    .contains(StackTarget.API, StackTarget.WORKER, StackTarget.BROKER);
            assertThat(run.resources().database().lockWaitSeconds()).isNotNull();
            var cost = run.cost();
            assertThat(cost).as(run.label() + " cost").isNotNull();
            assertThat(cost.decided()).isEqualTo(truth.completedOrders() + truth.rejectedOrders());
            assertThat(cost.apiCpuMs()).as(run.label() + " order-api CPU ms").isPositive();
            // PostgreSQL's CPU comes from /proc in whole clock ticks (10 ms): the few milliseconds that 50 checkouts
            // cost the database can read as none, so only its presence is required.
            assertThat(cost.databaseCpuMs())
                    .as(run.label() + " PostgreSQL CPU ms")
                    .isNotNull()
                    .isNotNegative();
            assertThat(cost.walBytes()).as(run.label() + " WAL bytes").isPositive();
            assertThat(cost.lockWaitMs()).as(run.label() + " lock waits").isNotNull();
        }
        var kafka = written.runs().getFirst();
        var kafkaRefused = kafka.httpStatuses().getOrDefault(StatusCounts.SOLD_OUT, 0L);
        assertThat(kafka.httpStatuses()).containsEntry("202", PARALLEL - kafkaRefused);
        assertThat(kafka.resultsMissing()).isZero();
        assertThat(kafka.finalLatency().count()).isEqualTo(PARALLEL - kafkaRefused);

        for (var file : List.of(
                ReportWriter.JSON_FILE,
                ReportWriter.MARKDOWN_FILE,
                "checkout-latency.png",
                "final-latency.png",
                "invariants.png",
                CheckoutCosts.CHART_FILE + ".png")) {
            assertThat(output.resolve(file)).isNotEmptyFile();
        }
    }
    /** Runs a compare on the shared stack, writes its report into {@code output} and reads it back, unchanged. */
    static CompareReport runAndReadBack(SharedLabStack.Lab lab, CompareSettings settings, Path output) {
        var target = lab.target();
        var startedAt = Instant.now();
        var report =
                new CompareExperiment(target, settings, Progress.silent()).run(() -> lab.header("compare", startedAt));
        ReportWriter.write(report, output);

        assertThat(report.skipped()).isEmpty();
        assertThat(report.runs()).extracting(StrategyRun::strategy).containsExactlyElementsOf(settings.strategies());
        var written = ReportWriter.JSON.readValue(
                output.resolve(ReportWriter.JSON_FILE).toFile(), CompareReport.class);
        assertThat(written).isEqualTo(report);
        return written;
    }
}
