package dev.orderpipeline.lab.drain;

import static org.assertj.core.api.Assertions.assertThat;

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
    void listsTheDrainsFiguresAsMeasured() {
        var report = committed();

        var table = report.drainTable();

        assertThat(table.columns()).containsExactly("Figure", "Value");
        assertThat(figure(table, "Commands")).isEqualTo("1000000");
        assertThat(figure(table, "Commands/s from the worker's start")).isEqualTo("3225");
        assertThat(figure(table, "Results / duplicates / orders without a result"))
                .isEqualTo("1000000 / 0 / 0");
        assertThat(figure(table, "Invariants")).isEqualTo("hold");
        assertThat(report.holds()).isTrue();
    }

    @Test
    void setsTheDrainAgainstEachCeilingPerBatchSize() {
        var report = committed();
        var before = table(report, "Ceiling before the drain");
        var after = table(report, "Ceiling after the drain");

        // 3224.7 from the start and 3426.7 while deciding, against 6721.3 before and 3872.3 after, at k=100
        assertThat(before.rows()).hasSize(2);
        assertThat(before.rows().getFirst())
                .containsExactly("100", "134500", "6721", "14 ms", "1.09", "hold", "0.48", "0.51");
        assertThat(after.rows().getFirst())
                .containsExactly("100", "77500", "3872", "23 ms", "1.14", "hold", "0.83", "0.88");
    }

    private static Table table(DrainReport report, String title) {
        return report.tables().stream()
                .filter(table -> table.title().equals(title))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no table " + title));
    }
}
