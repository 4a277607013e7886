package dev.orderpipeline.lab.rebalance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.report.CommittedReports;
import org.junit.jupiter.api.Test;

class RebalanceReportTests {

    private static RebalanceReport committed() {
        return CommittedReports.read("rebalance", RebalanceReport.class);
    }

    @Test
    void showsARowPerRunWithItsPausesInSeconds() {
        var report = committed();

        var table = report.tables().getFirst();

        assertThat(table.rows()).hasSameSizeAs(report.runs());
        var killClassic = table.rows().get(2);
        assertThat(killClassic.getFirst()).isEqualTo("kill / classic");
        assertThat(killClassic.get(table.columns().indexOf("Moved partitions"))).isEqualTo("[3, 4, 5]");
        assertThat(killClassic.get(table.columns().indexOf("Pause, moved"))).isEqualTo("16.34 s");
        assertThat(killClassic.get(table.columns().indexOf("Pause, killed worker's partitions")))
                .isEqualTo("16.34 s");
    }

    @Test
    void leavesTheKilledColumnsEmptyForAnAddedWorker() {
        var table = committed().tables().getFirst();

        var addClassic = table.rows().getFirst();
        assertThat(addClassic.getFirst()).isEqualTo("add / classic");
        assertThat(addClassic.get(table.columns().indexOf("Killed worker's partitions")))
                .isEqualTo("-");
        assertThat(addClassic.get(table.columns().indexOf("Pause, killed worker's partitions")))
                .isEqualTo("-");
    }

    @Test
    void listsEveryRunsEventsUnderItsLabel() {
        var report = committed();

        var events = report.tables().get(1);

        assertThat(events.rows())
                .hasSize(report.runs().stream()
                        .mapToInt(run -> run.events().size())
                        .sum());
        assertThat(events.rows().getFirst()).first().isEqualTo("add / classic");
    }
}
