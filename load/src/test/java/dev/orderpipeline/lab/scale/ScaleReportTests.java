package dev.orderpipeline.lab.scale;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.CommittedReports;
import dev.orderpipeline.lab.report.Table;
import java.util.List;
import org.jspecify.annotations.Nullable;
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
        // P=1: 6177.4 commands/s with one worker, 8084 with two (docs/results/scale)
        assertThat(table.rows().getFirst()).startsWith("hot", "1", "6177", "8084");
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
    void showsNoCostOfAReportWrittenBeforeTheCostWasMeasured() {
        var report = committed();
        var uncosted = new ScaleReport(
                report.header(),
                report.settings(),
                report.cells().stream().map(cell -> costed(cell, null)).toList());

        assertThat(uncosted.tables()).extracting(Table::title).doesNotContain(CheckoutCosts.TITLE);
        assertThat(uncosted.charts()).extracting(Chart::file).doesNotContain(CheckoutCosts.CHART_FILE);
    }

    @Test
    void showsTheCostOfEveryCellOfTheCommittedRun() {
        var report = committed();

        assertThat(report.cells()).allMatch(cell -> cell.cost() != null);
        assertThat(report.tables())
                .filteredOn(table -> table.title().equals(CheckoutCosts.TITLE))
                .singleElement()
                .extracting(table -> table.rows().size())
                .isEqualTo(report.cells().size());
        assertThat(report.charts()).extracting(Chart::file).contains(CheckoutCosts.CHART_FILE);
    }

    @Test
    void showsTheCostPerCheckoutOfACellAndABarForIt() {
        var report = committed();
        var withCost =
                costed(report.cells().getFirst(), new CheckoutCost(10_000, 0.05, 0.2, 0.8, 1.1, 2.15, 0.01, 900L));
        var costed = new ScaleReport(report.header(), report.settings(), List.of(withCost));

        assertThat(costed.tables())
                .filteredOn(table -> table.title().equals(CheckoutCosts.TITLE))
                .singleElement()
                .extracting(Table::rows)
                .isEqualTo(List.of(
                        List.of("P=1 W=1 hot", "10000", "0.05", "0.20", "0.80", "1.10", "2.15", "0.01", "900")));
        assertThat(costed.charts()).extracting(Chart::file).contains(CheckoutCosts.CHART_FILE);
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

    /** The cell with this cost, or none. */
    private static ScaleCell costed(ScaleCell cell, @Nullable CheckoutCost cost) {
        return new ScaleCell(
                cell.partitions(),
                cell.workers(),
                cell.keys(),
                cell.commands(),
                cell.products(),
                cell.producedPerSecond(),
                cell.seconds(),
                cell.perSecond(),
                cell.endToEnd(),
                cell.recordsPerPartition(),
                cell.lag(),
                cell.duplicates(),
                cell.resources(),
                cell.invariants(),
                cost);
    }
}
