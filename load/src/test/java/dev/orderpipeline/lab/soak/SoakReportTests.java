package dev.orderpipeline.lab.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.CommittedReports;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakReportTests {

    @TempDir
    Path folder;

    @Test
    void comparesEachStrategysHotRateWithItsSpreadRateAndWithTheBestLockStrategy() {
        var report = report(
                run("for-update", "hot", 100, false),
                run("for-update", "hot", 200, true),
                run("for-update", "uniform:1000", 400, false),
                run("naive", "hot", 400, false),
                run("kafka", "hot", 400, false),
                run("kafka", "hot", 800, false),
                run("kafka", "uniform:1000", 800, false));

        assertThat(report.headlineTable().rows())
                .containsExactly(
                        List.of("for-update", "99/s", "399/s (uniform:1000)", "0.25", "1.0x"),
                        List.of("naive", "399/s", "n/a", "n/a", "4.0x"),
                        List.of("kafka", "799/s", "799/s (uniform:1000)", "1.00", "8.1x"));
        assertThat(report.headlineTable().note()).contains("best lock strategy on the hot product here: for-update");
    }

    @Test
    void holdsUnlessARunOfThePipelineIsUnsafe() {
        var naiveOversold = SoakFixtures.judged(run("naive", 100, false), invariants(0, 2));
        var kafkaPastCapacity = SoakFixtures.judged(run("kafka", 400, true), invariants(3, 0));
        var kafkaDrifting = SoakFixtures.judged(run("kafka", 100, false), invariants(3, 2));

        assertThat(report(run("kafka", 100, false), naiveOversold, kafkaPastCapacity)
                        .holds())
                .isTrue();
        assertThat(report(kafkaDrifting, run("db-atomic", 100, false)).holds()).isFalse();
    }

    @Test
    void writesChartsAndReadsBackTheSameReport() throws Exception {
        var report = report(run("kafka", 100, false), run("for-update", 100, true), run("kafka", 200, false));

        ReportWriter.write(report, folder);

        assertThat(ReportWriter.JSON.readValue(
                        folder.resolve(ReportWriter.JSON_FILE).toFile(), SoakReport.class))
                .isEqualTo(report);
        assertThat(folder.resolve("p99-by-rate.png")).isRegularFile();
        assertThat(Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE)))
                .contains(
                        "## Sustained load",
                        "| kafka @ 100/s | 100 | 99.0 |",
                        "| no | hold |",
                        "![p99 against target rate]");
        assertThat(Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE))).contains("(p99-by-rate.png)");
    }

    @Test
    void drawsTheP99AgainstTheTargetRateAndNoChartForASingleRate() throws Exception {
        var report = report(run("kafka", 100, false), run("kafka", 200, false));

        ReportWriter.write(report, folder);

        assertThat(report.charts()).extracting(Chart::file).containsExactly("p99-by-rate");
        assertThat(folder.resolve("p99-by-rate.png")).isRegularFile();
        assertThat(report(run("kafka", 100, false)).charts()).isEmpty();
    }

    @Test
    void showsTheCostPerCheckoutOfEachRun() {
        var report = report(run("db-atomic", 100, false), run("kafka", 100, false));

        var table = CheckoutCosts.table("Run", report.runs(), SoakRun::label, SoakRun::cost);
        assertThat(table.getFirst().rows().getFirst())
                .containsExactly("db-atomic @ 100/s", "300", "1.50", "n/a", "n/a", "3.00", "4.50", "0.00", "1000");
        assertThat(report.tables()).extracting(Table::title).contains(CheckoutCosts.TITLE);
    }

    @Test
    void saysWhetherKafkaDecisionsKeptUpWithAcceptances() {
        var report = report(run("kafka", 100, false), run("db-atomic", 100, false));

        var kafka = report.kafkaTable();
        assertThat(kafka.rows()).hasSize(1);
        assertThat(kafka.rows().getFirst()).containsExactly("kafka @ 100/s", "297", "297", "25 ms", "120", "40", "yes");
        assertThat(ReportWriter.console(report)).contains("Kafka: decisions against acceptances");
    }

    @Test
    void countsOrdersLeftOpenByDroppedArrivalsAsNoViolation() {
        var run = run("db-atomic", 100, true);
        var dropped = new SoakRun(
                run.label(),
                run.strategy(),
                run.keys(),
                run.targetRate(),
                run.productId(),
                run.scheduled(),
                run.succeeded(),
                run.errors(),
                40,
                run.achievedRate(),
                run.latency(),
                run.finalLatency(),
                run.httpStatuses(),
                true,
                run.saturationReasons(),
                run.resources(),
                null,
                null,
                null);

        assertThat(SoakReport.verdict(dropped, invariants(40, 0)))
                .isEqualTo("hold; 40 open = arrivals dropped or unanswered");
        assertThat(SoakReport.verdict(dropped, invariants(41, 0))).startsWith("x: not final");
        assertThat(SoakReport.verdict(dropped, invariants(40, 2))).contains("drift");
        assertThat(SoakReport.verdict(dropped, invariants(0, 0))).isEqualTo("hold");
    }

    @Test
    void theCommittedRunShowsThePipelineFiveTimesTheBestLockStrategyOnTheHotProductAndNoSlowerThanOnSpreadKeys() {
        var report = CommittedReports.read("soak-hot-spread-durable", SoakReport.class);

        // the figures docs/throughput.md and the README quote from docs/results/soak-hot-spread-durable
        assertThat(report.headlineTable().rows())
                .containsExactly(
                        List.of("kafka", "1498/s", "898/s (uniform:10000)", "1.67", "5.0x"),
                        List.of("db-atomic", "300/s", "595/s (uniform:10000)", "0.50", "1.0x"),
                        List.of("for-update", "300/s", "300/s (uniform:10000)", "1.00", "1.0x"));
        // open orders are arrivals dropped or unanswered in the saturated runs; nothing else may be off
        assertThat(report.runs()).hasSize(30).allSatisfy(run -> {
            var invariants = run.invariants();
            assertThat(invariants).as(run.label()).isNotNull();
            assertThat(invariants.drift()).as(run.label()).isZero();
            assertThat(invariants.oversoldProducts()).as(run.label()).isZero();
            assertThat(invariants.doublePayments()).as(run.label()).isZero();
            assertThat(invariants.payments()).as(run.label()).isEqualTo(invariants.completed());
            assertThat(run.cost()).as(run.label()).isNotNull();
        });
    }

    private static SoakReport report(SoakRun... runs) {
        return SoakFixtures.report(List.of(runs), null, List.of());
    }

    private static SoakRun run(String strategy, int rate, boolean saturated) {
        return SoakFixtures.run(strategy, "hot", rate, saturated);
    }

    private static SoakRun run(String strategy, String keys, int rate, boolean saturated) {
        return SoakFixtures.run(strategy, keys, rate, saturated);
    }

    private static RunVerdict invariants(long notFinal, long drift) {
        return SoakFixtures.invariants(notFinal, drift);
    }
}
