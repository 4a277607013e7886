package dev.orderpipeline.lab.report;

import java.util.List;
import java.util.Map;

/**
 * A table of a report, rendered the same way on the console and in Markdown: as many cells per row as there are
 * column headings, and a note under it saying how to read it, or empty.
 */
public record Table(String title, List<String> columns, List<List<String>> rows, String note) {

    public Table {
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
        for (var row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException(
                        "table '" + title + "' has " + columns.size() + " columns but a row of " + row.size());
            }
        }
    }

    /** A table with a row per element of {@code rows}, its cells read by {@code columns}. */
    public static <R> Table of(String title, List<Column<R>> columns, List<? extends R> rows, String note) {
        return new Table(
                title,
                columns.stream().map(Column::heading).toList(),
                rows.stream()
                        .map(row -> columns.stream()
                                .map(column -> column.cell().apply(row))
                                .toList())
                        .toList(),
                note);
    }

    /** A two-column table of named figures ({@code Figure}, {@code Value}), in the order given. */
    public static Table figures(String title, Map<String, String> figures, String note) {
        return new Table(
                title,
                List.of("Figure", "Value"),
                figures.entrySet().stream()
                        .map(figure -> List.of(figure.getKey(), figure.getValue()))
                        .toList(),
                note);
    }

    public Table titled(String otherTitle) {
        return new Table(otherTitle, columns, rows, note);
    }
}
