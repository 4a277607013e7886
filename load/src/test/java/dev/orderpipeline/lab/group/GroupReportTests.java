package dev.orderpipeline.lab.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.CommittedReports;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class GroupReportTests {

    /** The grid of partitions x workers x keys, no event (docs/results/scale). */
    private static GroupReport scale() {
        return CommittedReports.read("scale", GroupReport.class);
    }

    /** Add, kill and restart under both protocols (docs/results/rebalance). */
    private static GroupReport rebalance() {
        return CommittedReports.read("rebalance", GroupReport.class);
    }

    private static Table table(GroupReport report, String title) {
        return report.tables().stream()
                .filter(table -> table.title().equals(title))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void laysTheThroughputOutAsARowPerDistributionAndPartitionCountAndAColumnPerWorkerCount() {
        var table = scale().throughputTable();

        assertThat(table.columns())
                .containsExactly("Keys", "Partitions", "Event", "Protocol", "1 worker", "2 workers", "3 workers");
        assertThat(table.rows()).hasSize(3 * 4);
        // P=1: 6177.4 commands/s with one worker, 8084 with two (docs/throughput.md quotes them)
        assertThat(table.rows().getFirst()).startsWith("hot", "1", "none", "classic", "6177", "8084");
    }

    @Test
    void holdsUnlessACellBrokeAnInvariant() {
        var report = scale();
        var oversold = RunVerdict.of(
                List.of(new InvariantReport(UUID.randomUUID(), 100, 99, 300, 300, 0, Map.of(), 0, 300, 0, 0)));
        var cells = new ArrayList<>(report.cells());
        cells.set(1, judged(cells.get(1), oversold));

        assertThat(report.holds()).isTrue();
        assertThat(new GroupReport(report.header(), report.settings(), cells).holds())
                .isFalse();
    }

    @Test
    void marksACellThatWasNotRunWithADash() {
        var report = scale();
        var withoutFirst = new GroupReport(
                report.header(),
                report.settings(),
                report.cells().subList(1, report.cells().size()));

        assertThat(withoutFirst.throughputTable().rows().getFirst().get(4)).isEqualTo("-");
    }

    @Test
    void showsTheCostOfEveryCellOfTheCommittedGridAndNoneWhereNoCellHasOne() {
        var report = scale();
        var uncosted = new GroupReport(
                report.header(),
                report.settings(),
                report.cells().stream().map(cell -> costed(cell, null)).toList());

        assertThat(table(report, CheckoutCosts.TITLE).rows()).hasSameSizeAs(report.cells());
        assertThat(report.charts()).extracting(Chart::file).contains(CheckoutCosts.CHART_FILE);
        assertThat(uncosted.tables()).extracting(Table::title).doesNotContain(CheckoutCosts.TITLE);
        assertThat(uncosted.charts()).extracting(Chart::file).doesNotContain(CheckoutCosts.CHART_FILE);
    }

    @Test
    void showsTheCostPerCheckoutOfACell() {
        var report = scale();
        var withCost =
                costed(report.cells().getFirst(), new CheckoutCost(10_000, 0.05, 0.2, 0.8, 1.1, 2.15, 0.01, 900L));
        var costed = new GroupReport(report.header(), report.settings(), List.of(withCost));

        assertThat(table(costed, CheckoutCosts.TITLE).rows())
                .isEqualTo(List.of(
                        List.of("P=1 W=1 hot", "10000", "0.05", "0.20", "0.80", "1.10", "2.15", "0.01", "900")));
    }

    @Test
    void showsOneCellRowPerCellWithItsBusiestPartitionShare() {
        var report = scale();

        var table = report.cellTable();

        assertThat(table.rows()).hasSameSizeAs(report.cells());
        assertThat(table.columns().get(4)).isEqualTo("Busiest partition");
        // a hot key puts everything on one partition
        assertThat(table.rows().getFirst()).startsWith("P=1 W=1 hot").contains("100%", "hold");
        // the grid has no event: no rebalance table, and the charts docs/throughput.md shows
        assertThat(report.tables()).extracting(Table::title).doesNotContain("Rebalances");
        assertThat(report.charts()).extracting(Chart::file).contains("throughput-zipf-10000-1-1");
    }

    @Test
    void showsARowPerRebalanceWithItsPausesInSeconds() {
        var report = rebalance();

        var table = table(report, "Rebalances");

        assertThat(table.rows()).hasSameSizeAs(report.cells());
        var killClassic = table.rows().get(2);
        assertThat(killClassic.getFirst()).isEqualTo("P=6 W=2 uniform:10000 kill / classic");
        assertThat(killClassic.get(table.columns().indexOf("Moved partitions"))).isEqualTo("[3, 4, 5]");
        assertThat(killClassic.get(table.columns().indexOf("Pause, moved"))).isEqualTo("16.34 s");
        assertThat(killClassic.get(table.columns().indexOf("Pause, killed worker's partitions")))
                .isEqualTo("16.34 s");
        var addClassic = table.rows().getFirst();
        assertThat(addClassic.get(table.columns().indexOf("Pause, killed worker's partitions")))
                .isEqualTo("-");
        assertThat(report.charts()).extracting(Chart::file).contains("rebalance-lag");
    }

    /** The cell with this cost, or none. */
    private static GroupCell costed(GroupCell cell, @Nullable CheckoutCost cost) {
        return with(cell, cell.invariants(), cost);
    }

    /** The cell with this verdict of the database. */
    private static GroupCell judged(GroupCell cell, RunVerdict invariants) {
        return with(cell, invariants, cell.cost());
    }

    private static GroupCell with(GroupCell cell, RunVerdict invariants, @Nullable CheckoutCost cost) {
        return new GroupCell(
                cell.partitions(),
                cell.workers(),
                cell.keys(),
                cell.event(),
                cell.protocol(),
                cell.groupType(),
                cell.perSecond(),
                cell.endToEnd(),
                cell.recordsPerPartition(),
                cell.curve(),
                cell.duplicates(),
                cell.duplicatesCounted(),
                invariants,
                cost,
                cell.disruption());
    }
}
