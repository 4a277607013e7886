package dev.orderpipeline.lab.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.CommittedReports;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakReportTests {

    @TempDir
    Path folder;

    @Test
    void namesTheFirstRateAtWhichEachStrategySaturates() {
        var report = report(
                run("db-atomic", 100, false),
                run("db-atomic", 200, false),
                run("db-atomic", 400, true),
                run("kafka", 100, false),
                run("kafka", 200, false),
                run("kafka", 400, false));

        assertThat(report.saturationTable().rows())
                .containsExactly(List.of("db-atomic", "400/s", "200/s"), List.of("kafka", "not up to 400/s", "400/s"));
    }

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
    void writesTimeSeriesChartsAndReadsBackTheSameReport() throws Exception {
        var report = report(run("kafka", 100, false), run("for-update", 100, true));

        ReportWriter.write(report, folder);

        assertThat(ReportWriter.JSON.readValue(
                        folder.resolve(ReportWriter.JSON_FILE).toFile(), SoakReport.class))
                .isEqualTo(report);
        for (var png : List.of("throughput-over-time.png", "latency-over-time.png", "latency.png")) {
            assertThat(folder.resolve(png)).isRegularFile();
        }
        assertThat(Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE)))
                .contains("## Sustained load", "| kafka @ 100/s | 100 | 99.0 |", "![Successful checkouts per second]");
        assertThat(Files.readString(folder.resolve(ReportWriter.HTML_FILE)))
                .contains("src=\"throughput-over-time.png\"", "src=\"latency-over-time.png\"");
    }

    @Test
    void showsTheCostPerCheckoutOfEachRunAndDrawsItOverTheRatePerStrategy() throws Exception {
        var report = report(
                run("db-atomic", 100, false),
                run("db-atomic", 200, false),
                run("kafka", 100, false),
                run("kafka", 200, false));

        var table = CheckoutCosts.table("Run", report.runs(), SoakRun::label, SoakRun::cost);
        assertThat(table.getFirst().rows().getFirst())
                .containsExactly("db-atomic @ 100/s", "300", "1.50", "n/a", "n/a", "3.00", "4.50", "0.00", "1000");
        ReportWriter.write(report, folder);
        assertThat(report.charts())
                .filteredOn(chart -> chart.file().equals(CheckoutCosts.CHART_FILE))
                .singleElement()
                .isInstanceOfSatisfying(
                        Chart.Panels.class,
                        panels -> assertThat(panels.panels())
                                .extracting(Chart.Panel::title)
                                .containsExactly("db-atomic, hot", "kafka, hot"));
        assertThat(folder.resolve(CheckoutCosts.CHART_FILE + ".png")).isRegularFile();
        assertThat(Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE))).contains("## Cost per checkout");
    }

    @Test
    void saysWhetherKafkaDecisionsKeptUpWithAcceptancesAndWhereTheCpuWent() {
        var report = report(run("kafka", 100, false), run("db-atomic", 100, false));

        var kafka = report.kafkaTable();
        assertThat(kafka.rows()).hasSize(1);
        assertThat(kafka.rows().getFirst())
                .containsExactly("kafka @ 100/s", "297", "297", "80 ms", "25 ms", "90 ms", "120", "40", "0.5 s", "yes");
        assertThat(report.cpuTable().rows())
                .extracting(row -> row.getFirst())
                .containsExactly("kafka @ 100/s", "db-atomic @ 100/s");
        assertThat(ReportWriter.console(report))
                .contains("Kafka: decisions against acceptances", "CPU per kind of process", "Invariants, read from");
    }

    @Test
    void countsOrdersLeftOpenByDroppedArrivalsAsNoViolation() {
        var run = run("db-atomic", 100, true);
        var dropped = new SoakRun(
                run.label(),
                run.strategy(),
                run.keys(),
                run.products(),
                run.targetRate(),
                run.durationSeconds(),
                run.productId(),
                run.scheduled(),
                run.started() - 40,
                run.succeeded(),
                run.errors(),
                40,
                run.achievedRate(),
                run.latency(),
                run.finalLatency(),
                run.httpStatuses(),
                run.timeline(),
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

    private static RunInvariants.Summary invariants(long notFinal, long drift) {
        var violations = new ArrayList<String>();
        if (notFinal > 0) {
            violations.add("x: not final: " + notFinal + " orders still CREATED or PROCESSING");
        }
        if (drift != 0) {
            violations.add("x: drift: " + drift);
        }
        return new RunInvariants.Summary(
                1,
                violations.isEmpty() ? 0 : 1,
                260,
                0,
                notFinal,
                260,
                40 - drift,
                300,
                drift,
                0,
                0,
                0,
                260,
                violations);
    }

    private static SoakReport report(SoakRun... runs) {
        var settings = new SoakSettings(
                List.of("db-atomic", "kafka"),
                List.of("hot"),
                List.of(100, 200, 400),
                Duration.ofSeconds(3),
                2000,
                null,
                null,
                Duration.ofSeconds(1),
                Duration.ZERO);
        var header = new ReportHeader(
                "soak",
                Map.of("mode", "started by the lab"),
                new Machine(2, 4096, "test CPU", "Linux", "JDK"),
                Map.of("lab", "test"),
                Instant.parse("2026-01-01T10:00:00Z"),
                Instant.parse("2026-01-01T10:05:00Z"));
        return new SoakReport(header, settings, List.of(runs), List.of());
    }

    private static SoakRun run(String strategy, int rate, boolean saturated) {
        return run(strategy, "hot", rate, saturated);
    }

    private static SoakRun run(String strategy, String keys, int rate, boolean saturated) {
        var timeline = new ArrayList<SoakRun.SoakSecond>();
        for (var second = 0; second < 3; second++) {
            timeline.add(new SoakRun.SoakSecond(second, rate, rate - 1, 0, 0, 0, 12.5, saturated ? 1500 : 80, 1800));
        }
        // 1.5 ms of the API and 3 ms of PostgreSQL per checkout, at every rate
        var resources = new ResourceUsage(
                List.of(new ResourceUsage.ProcessUsage("order-api", 1, 15, 30, 300, 0.0045 * rate)),
                new ResourceUsage.DatabaseUsage(5, 30.0, 60.0, 0.009 * rate, 0.0, 3000L * rate),
                15);
        return new SoakRun(
                strategy + (keys.equals("hot") ? "" : " " + keys) + " @ " + rate + "/s",
                strategy,
                keys,
                1,
                rate,
                3,
                UUID.randomUUID(),
                3L * rate,
                3L * rate,
                3L * rate - 3,
                0,
                0,
                saturated ? rate * 0.7 : rate - 1,
                new Latency(3L * rate, 2, 20, 12.5, 40, 60, saturated ? 1500 : 80, 1700, 1800),
                strategy.equals("kafka") ? new Latency(3L * rate, 5, 30, 25, 50, 70, 90, 100, 110) : null,
                Map.of(strategy.equals("kafka") ? "202" : "200", 3L * rate - 3, "503", 3L),
                timeline,
                saturated,
                saturated ? List.of("p99 1500 ms over 1000 ms") : List.of(),
                resources,
                strategy.equals("kafka")
                        ? new SoakRun.KafkaFigures(
                                3L * rate - 3, 3L * rate - 3, 120, 40, 0.5, List.of(0L, 120L, 40L, 0L))
                        : null,
                invariants(0, 0),
                CheckoutCost.of(resources, 3L * rate));
    }
}
