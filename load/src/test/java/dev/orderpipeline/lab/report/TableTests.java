package dev.orderpipeline.lab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTests {

    private record Run(String name, double perSecond) {}

    @Test
    void readsEveryRowThroughItsColumnsInColumnOrder() {
        var table = Table.of(
                "Runs",
                List.<Column<Run>>of(
                        Column.of("Run", Run::name), Column.of("Commands/s", run -> Cells.decimal(run.perSecond(), 0))),
                List.of(new Run("a", 1234.4), new Run("b", 99.5)),
                "a note");

        assertThat(table.columns()).containsExactly("Run", "Commands/s");
        assertThat(table.rows()).containsExactly(List.of("a", "1234"), List.of("b", "100"));
        assertThat(table.note()).isEqualTo("a note");
    }

    @Test
    void keepsTheFiguresInTheOrderGiven() {
        var figures = new LinkedHashMap<String, String>();
        figures.put("Commands", "10");
        figures.put("Avg", "3");

        var table = Table.figures("Drain", figures, "");

        assertThat(table.columns()).containsExactly("Figure", "Value");
        assertThat(table.rows()).containsExactly(List.of("Commands", "10"), List.of("Avg", "3"));
    }

    @Test
    void refusesARowWithAnotherNumberOfCells() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Table("t", List.of("a", "b"), List.of(List.of("1")), ""))
                .withMessageContaining("2 columns but a row of 1");
    }

    @Test
    void printsTheTablesOnTheConsoleAsReportMdShowsThem() {
        var table = new Table("Runs", List.of("Run", "n"), List.of(List.of("a|b", "1"), List.of("long", "1000")), "");

        var text = ReportWriter.console(new StubReport(List.of(table)));

        assertThat(text.lines())
                .contains("## Runs", "| Run | n |", "| --- | --- |", "| a\\|b | 1 |", "| long | 1000 |");
    }

    private record StubReport(List<Table> tables) implements LabReport {

        @Override
        public ReportHeader header() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Record settings() {
            return new Run("x", 1);
        }

        @Override
        public String summary() {
            return "";
        }

        @Override
        public List<Chart> charts() {
            return List.of();
        }
    }
}
