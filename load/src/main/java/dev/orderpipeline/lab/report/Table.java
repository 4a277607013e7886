package dev.orderpipeline.lab.report;

import java.util.List;

/**
 * A table of a report, rendered the same way on the console, in Markdown and in HTML.
 *
 * @param title what the table shows
 * @param columns column headings
 * @param rows cells, as many per row as there are columns
 * @param note a sentence under the table saying how to read it, or empty
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
}
