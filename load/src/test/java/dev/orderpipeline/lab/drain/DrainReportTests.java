package dev.orderpipeline.lab.drain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.report.CommittedReports;
import dev.orderpipeline.lab.report.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrainReportTests {

    private static DrainReport committed() {
        return CommittedReports.read("drain", DrainReport.class);
    }

    private static String figure(Table table, String name) {
        return table.rows().stream()
                .filter(row -> row.getFirst().equals(name))
                .map(List::getLast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no figure " + name + " in " + table.title()));
    }

    @Test
    void timesTheDrainFromTheWorkersStartAndTheDecidingFromTheFirstToTheLastResult() {
        var results = new ResultsScan.Summary(1000, 3, 1000, 10_000, 12_500, null);

        var drained = new DrainExperiment.Drained(1000, 4000, results);

        assertThat(drained.perSecondFromStart()).isEqualTo(250.0);
        assertThat(drained.decidingSeconds()).isEqualTo(2.5);
        assertThat(results.decidedPerSecond()).isEqualTo(400.0);
    }

    @Test
    void listsTheDrainsFiguresAsMeasured() {
        var report = committed();

        var table = report.drainTable();

        assertThat(table.columns()).containsExactly("Figure", "Value");
        assertThat(figure(table, "Commands")).isEqualTo("1000000");
        assertThat(figure(table, "Commands/s from the worker's start")).isEqualTo("3225");
        assertThat(figure(table, "Results / duplicates / orders without a result"))
                .isEqualTo("1000000 / 0 / 0");
        assertThat(figure(table, "Invariants")).startsWith("hold (");
    }

    @Test
    void setsTheDrainAgainstTheCeilingBeforeAndAfterPerBatchSize() {
        var table = committed().againstCeiling();

        // 3224.7 from the start against 6721.3 before and 3872.3 after, at k=100
        assertThat(table.rows().getFirst()).containsExactly("100", "6721", "3872", "0.48 / 0.83", "0.51 / 0.88");
        assertThat(table.rows()).hasSize(2);
    }

    @Test
    void showsBothCeilingsUnderTitlesOfTheirOwn() {
        assertThat(committed().tables())
                .extracting(Table::title)
                .contains("Drain", "Drain against the ceiling", "Ceiling before the drain", "Ceiling after the drain");
    }
}
