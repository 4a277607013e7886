package dev.orderpipeline.lab.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThroughputReportTests {

    @TempDir
    Path folder;

    @Test
    void dividesEachComponentsCpuTimeByTheDecidedCheckoutsAndKeepsTheLabApart() {
        var run = ThroughputFixtures.kafkaRun("kafka");

        // order-api 5 CPU seconds over 10,000 checkouts
        assertThat(run.cost()).isNotNull();
        assertThat(run.cost().cpuMsByComponent())
                .containsExactly(
                        Map.entry(StackTarget.API, 0.5),
                        Map.entry(StackTarget.BROKER, 0.1),
                        Map.entry(StackTarget.WORKER, 0.05),
                        Map.entry(CheckoutCost.POSTGRESQL, 0.3));
        assertThat(run.cost().totalCpuMs()).isEqualTo(0.95);
        assertThat(run.labCpuMs()).isEqualTo(0.4);
    }

    @Test
    void ratesCountAnswersAndDecisionsPerSecondOfTheLoop() {
        var run = ThroughputFixtures.kafkaRun("kafka");

        assertThat(run.checkoutsPerSecond()).isEqualTo(1250.0);
        // 400 of the 10,000 were still the workers' lag when the loop stopped
        assertThat(run.decidedPerSecond()).isEqualTo(1200.0);
        assertThat(run.secondsToFinal()).isEqualTo(1.2);
        assertThat(run.orders()).isEqualTo(12_050);
        assertThat(run.cost().decided()).isEqualTo(10_000);
    }

    @Test
    void tablesShowOneRowPerRunWithTheCpuOfEachComponent() {
        var report = ThroughputFixtures.report(
                List.of(ThroughputFixtures.kafkaRun("kafka"), ThroughputFixtures.lockRun("db-atomic")));

        assertThat(report.throughputTable().rows())
                .containsExactly(
                        List.of("kafka", "8.0", "1250", "1200", "202×10000", "13 ms", "40 ms", "400", "1.2 s"),
                        List.of(
                                "db-atomic",
                                "10.0 (ran out of orders)",
                                "500",
                                "500",
                                "200×5000",
                                "13 ms",
                                "40 ms",
                                "0",
                                "0.0 s"));
        assertThat(report.cpuTable().columns())
                .containsExactly(
                        "Run",
                        "order-api",
                        "kafka-broker",
                        "checkout-worker",
                        "postgresql",
                        "total",
                        "lab (load generator)");
        assertThat(report.cpuTable().rows())
                .containsExactly(
                        List.of("kafka", "0.50 ms", "0.10 ms", "0.05 ms", "0.30 ms", "0.95 ms", "0.40 ms"),
                        List.of("db-atomic", "1.00 ms", "0.20 ms", "0.10 ms", "n/a", "1.30 ms", "0.80 ms"));
        assertThat(report.invariantsTable().rows())
                .containsExactly(
                        List.of("kafka", "10000", "10000", "0", "0", "0", "hold"),
                        List.of("db-atomic", "5000", "5000", "0", "0", "0", "hold"));
        assertThat(report.tables()).extracting(table -> table.title()).contains("Not run");
    }

    @Test
    void chartsTheCpuOfEachComponentStackedPerRun() {
        var report = ThroughputFixtures.report(
                List.of(ThroughputFixtures.kafkaRun("kafka"), ThroughputFixtures.lockRun("db-atomic")));

        var chart = (Chart.Bars) report.charts().getFirst();
        assertThat(chart.stacked()).isTrue();
        assertThat(chart.values().keySet())
                .containsExactly(StackTarget.API, StackTarget.BROKER, StackTarget.WORKER, CheckoutCost.POSTGRESQL);
        assertThat(chart.values().get(CheckoutCost.POSTGRESQL)).containsOnlyKeys("kafka");
    }

    @Test
    void writesAReportThatReadsBackAsItWas() throws Exception {
        var report = ThroughputFixtures.report(List.of(ThroughputFixtures.kafkaRun("kafka")));

        ReportWriter.write(report, folder);

        var read = ReportWriter.JSON.readValue(
                folder.resolve(ReportWriter.JSON_FILE).toFile(), ThroughputReport.class);
        assertThat(read).isEqualTo(report);
        assertThat(folder.resolve(CheckoutCosts.CHART_FILE + ".png")).isNotEmptyFile();
        assertThat(folder.resolve(ReportWriter.MARKDOWN_FILE)).content().contains("CPU per decided checkout");
    }
}
