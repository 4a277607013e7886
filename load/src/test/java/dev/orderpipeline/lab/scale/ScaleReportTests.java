package dev.orderpipeline.lab.scale;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.report.CommittedReports;
import org.junit.jupiter.api.Test;

class ScaleReportTests {

    private static ScaleReport committed() {
        return CommittedReports.read("scale", ScaleReport.class);
    }

    @Test
    void laysTheThroughputOutAsARowPerDistributionAndPartitionCountAndAColumnPerWorkerCount() {
        var report = committed();

        var table = report.throughputTable();

        assertThat(table.columns()).containsExactly("Keys", "Partitions", "1 worker", "2 workers", "3 workers");
        assertThat(table.rows()).hasSize(3 * 4);
        // P=1: 2496.4 commands/s with one worker, 3539.8 with two (docs/results/scale)
        assertThat(table.rows().getFirst()).startsWith("hot", "1", "2496", "3540");
    }

    @Test
    void marksACellThatWasNotRunWithADash() {
        var report = committed();
        var withoutFirst = new ScaleReport(
                report.header(),
                report.settings(),
                report.cells().subList(1, report.cells().size()));

        assertThat(withoutFirst.throughputTable().rows().getFirst().get(2)).isEqualTo("-");
    }

    @Test
    void showsOneCellRowPerCellWithItsBusiestPartitionShare() {
        var report = committed();

        var table = report.cellTable();

        assertThat(table.rows()).hasSameSizeAs(report.cells());
        assertThat(table.columns().get(5)).isEqualTo("Busiest partition");
        // a hot key puts everything on one partition
        assertThat(table.rows().getFirst()).startsWith("P=1 W=1 hot").contains("100%", "hold");
    }
}
