package dev.orderpipeline.lab.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CapacityModelTests {

    @TempDir
    Path folder;

    /** kafka: order-api 0.5 ms, broker 0.1, worker 0.05, PostgreSQL 0.3, the lab 0.4; one partition 5,000/s. */
    @Test
    void boundsThePipelinesHotProductByItsCpuUntilOnePartitionIsTheBound() {
        var model = ThroughputFixtures.capacity(List.of(ThroughputFixtures.kafkaRun("kafka")));

        var kafka = model.estimates().getFirst();
        assertThat(kafka.cpuMs())
                .containsExactly(
                        Map.entry(StackTarget.API, 0.5),
                        Map.entry(StackTarget.BROKER, 0.1),
                        Map.entry(StackTarget.WORKER, 0.05),
                        Map.entry(CheckoutCost.POSTGRESQL, 0.3));
        assertThat(kafka.rates())
                .containsExactly(
                        new CapacityModel.Rate(1, 2_000, StackTarget.API),
                        new CapacityModel.Rate(2, 4_000, StackTarget.API),
                        new CapacityModel.Rate(4, 5_000, CapacityModel.PARTITION),
                        new CapacityModel.Rate(8, 5_000, CapacityModel.PARTITION));
        // two cores for everything and the lab: 2,000 / (0.95 + 0.4) ms
        assertThat(kafka.thisMachine()).isEqualTo(new CapacityModel.Rate(2, 1_481, "all"));
        // 10,000 decided over 10 s sampled
        assertThat(kafka.measuredPerSecond()).isEqualTo(1_000.0);
    }

    /** db-atomic: order-api 1.0 ms, PostgreSQL not measured, an idle broker and worker; the row admits 1,500/s. */
    @Test
    void leavesTheIdleBrokerAndWorkerOffALockStrategysPathAndBoundsItsHotProductByTheRow() {
        var model = ThroughputFixtures.capacity(List.of(ThroughputFixtures.lockRun("db-atomic")));

        var lock = model.estimates().getFirst();
        assertThat(lock.cpuMs()).containsOnlyKeys(StackTarget.API);
        assertThat(lock.rates())
                .extracting(CapacityModel.Rate::perSecond, CapacityModel.Rate::bound)
                .containsExactly(
                        tuple(1_000.0, StackTarget.API),
                        tuple(1_500.0, CapacityModel.HOT_ROW),
                        tuple(1_500.0, CapacityModel.HOT_ROW),
                        tuple(1_500.0, CapacityModel.HOT_ROW));
    }

    @Test
    void spreadKeysHaveNoSerialBound() {
        var cpu = Map.of(StackTarget.API, 0.25);

        assertThat(CapacityModel.rate(8, cpu, null, CapacityModel.PARTITION))
                .isEqualTo(new CapacityModel.Rate(8, 32_000, StackTarget.API));
        assertThat(CapacityModel.rate(8, cpu, 5_000.0, CapacityModel.PARTITION))
                .isEqualTo(new CapacityModel.Rate(8, 5_000, CapacityModel.PARTITION));
    }

    @Test
    void averagesTheRoundsOfAStrategy() {
        var model = ThroughputFixtures.capacity(List.of(
                ThroughputFixtures.kafkaRun("kafka #1"),
                ThroughputFixtures.lockRun("db-atomic #1"),
                ThroughputFixtures.kafkaRun("kafka #2")));

        assertThat(model.estimates())
                .extracting(CapacityModel.Estimate::strategy, CapacityModel.Estimate::runs)
                .containsExactly(tuple("kafka", 2), tuple("db-atomic", 1));
    }

    @Test
    void theReportShowsTheModelItsProbesAndAChartAndReadsBack() throws Exception {
        var runs = List.of(ThroughputFixtures.kafkaRun("kafka"), ThroughputFixtures.lockRun("db-atomic"));
        var report = ThroughputFixtures.report(runs, ThroughputFixtures.capacity(runs));

        var model = report.tables().stream()
                .filter(table -> table.title().startsWith("Capacity model: checkouts/s"))
                .findFirst()
                .orElseThrow();
        assertThat(model.rows().getFirst())
                .startsWith(
                        "kafka",
                        "hot",
                        "2,000/s (order-api)",
                        "4,000/s (order-api)",
                        "5,000/s (one partition)",
                        "5,000/s (one partition)",
                        "1,481/s (all)",
                        "1,000/s",
                        "0.68");
        assertThat(model.note()).contains("Assumptions");
        var probes = report.tables().stream()
                .filter(table -> table.title().equals("Capacity model: the probes"))
                .findFirst()
                .orElseThrow();
        assertThat(probes.rows())
                .extracting(row -> row.get(0) + " " + row.get(1))
                .containsExactly("one partition 5,000/s", "hot row 1,200/s", "hot row (the best: the model's) 1,500/s");
        var chart = (Chart.Panels) report.charts().getLast();
        assertThat(chart.panels()).extracting(Chart.Panel::title).containsExactly("hot");
        assertThat(chart.panels().getFirst().values()).containsOnlyKeys("kafka", "db-atomic");

        ReportWriter.write(report, folder);
        var read = ReportWriter.JSON.readValue(
                folder.resolve(ReportWriter.JSON_FILE).toFile(), ThroughputReport.class);
        assertThat(read).isEqualTo(report);
        assertThat(folder.resolve(CapacityTables.CHART_FILE + ".png")).isNotEmptyFile();
    }
}
