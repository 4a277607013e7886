package dev.orderpipeline.lab.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Cells;
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
        var model = SoakFixtures.capacity(List.of(SoakFixtures.kafkaRun(1000, false)));

        var kafka = model.estimates().getFirst();
        // the lab's own CPU is no part of the cost, and only counts for this machine
        assertThat(SoakFixtures.kafkaRun(1000, false).cost().totalCpuMs()).isEqualTo(0.95);
        assertThat(kafka.rates())
                .containsExactly(
                        new CapacityModel.Rate(1, 2_000, StackTarget.API),
                        new CapacityModel.Rate(2, 4_000, StackTarget.API),
                        new CapacityModel.Rate(4, 5_000, CapacityModel.PARTITION),
                        new CapacityModel.Rate(8, 5_000, CapacityModel.PARTITION));
        // two cores for everything and the lab: 2,000 / (0.5 + 0.1 + 0.05 + 0.3 + 0.4) ms
        assertThat(kafka.thisMachine()).isEqualTo(new CapacityModel.Rate(2, 1_481, "all"));
        assertThat(kafka.measuredPerSecond()).isEqualTo(1_000.0);
    }

    /** db-atomic: order-api 1.0 ms, PostgreSQL not measured, an idle broker and worker; the row admits 1,500/s. */
    @Test
    void leavesTheIdleBrokerAndWorkerOffALockStrategysPathAndBoundsItsHotProductByTheRow() {
        var model = SoakFixtures.capacity(List.of(SoakFixtures.lockRun(500, false)));

        var lock = model.estimates().getFirst();
        // two cores for order-api and the lab only: 2,000 / (1.0 + 0.8) ms, not also the broker's 0.2 and worker's 0.1
        assertThat(lock.thisMachine()).isEqualTo(new CapacityModel.Rate(2, 1_111, "all"));
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
        var spread = SoakFixtures.run("kafka", "uniform:20", 1000, 1000, false, SoakFixtures.usage(3.0), 10_000);
        assertThat(SoakFixtures.capacity(List.of(spread)).estimates().getFirst().rates())
                .extracting(CapacityModel.Rate::bound)
                .containsOnly(StackTarget.API);
    }

    /** Per strategy and keys one estimate, from the highest rate kept up, else from the highest rate achieved. */
    @Test
    void takesEachStrategysCostFromTheHighestRateItKeptUpWith() {
        var model = SoakFixtures.capacity(List.of(
                SoakFixtures.kafkaRun(500, false),
                SoakFixtures.lockRun(500, true),
                SoakFixtures.kafkaRun(1000, false),
                SoakFixtures.kafkaRun(2000, true),
                SoakFixtures.run("db-atomic", "hot", 1000, 600, true, SoakFixtures.usage(null), 6_000)));

        assertThat(model.estimates())
                .extracting(
                        CapacityModel.Estimate::strategy,
                        CapacityModel.Estimate::run,
                        CapacityModel.Estimate::measuredPerSecond)
                .containsExactly(
                        tuple("kafka", "kafka @ 1000/s", 1_000.0), tuple("db-atomic", "db-atomic @ 1000/s", 600.0));
    }

    @Test
    void theReportShowsTheModelAndItsProbesAndReadsBack() throws Exception {
        // one rate: the cost chart is one stack per run
        var runs = List.of(SoakFixtures.kafkaRun(500, false), SoakFixtures.lockRun(500, false));
        var report = SoakFixtures.report(runs, SoakFixtures.capacity(runs), List.of("naive"));

        var model = report.tables().stream()
                .filter(table -> table.title().startsWith("Capacity model: checkouts/s"))
                .findFirst()
                .orElseThrow();
        assertThat(model.rows().getFirst())
                .startsWith(
                        "kafka",
                        "hot",
                        "kafka @ 500/s",
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
        assertThat(report.tables()).extracting(table -> table.title()).endsWith("Not run");
        // the cost per checkout per run, PostgreSQL's only where it was read
        var costs = report.tables().stream()
                .filter(table -> table.title().equals(CheckoutCosts.TITLE))
                .findFirst()
                .orElseThrow();
        var postgres = costs.columns().indexOf(CheckoutCost.POSTGRESQL + " CPU ms");
        assertThat(costs.rows())
                .filteredOn(row -> !row.get(postgres).equals(Cells.NOT_AVAILABLE))
                .extracting(List::getFirst)
                .containsExactly("kafka @ 500/s");

        ReportWriter.write(report, folder);
        var read = ReportWriter.JSON.readValue(
                folder.resolve(ReportWriter.JSON_FILE).toFile(), SoakReport.class);
        assertThat(read).isEqualTo(report);
        assertThat(folder.resolve(ReportWriter.MARKDOWN_FILE)).content().contains("Capacity model: the probes");
    }
}
