package dev.orderpipeline.lab.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a report folder: {@code report.json}, one PNG per chart and {@code report.md} that shows the tables and
 * embeds the PNGs by relative name, so the folder can be moved or opened offline.
 */
public final class ReportWriter {

    public static final String JSON_FILE = "report.json";
    public static final String MARKDOWN_FILE = "report.md";

    /** The mapper the report is written with; a test reads it back with the same one. */
    public static final JsonMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ReportWriter() {}

    /** Writes everything into {@code folder} (created if missing) and returns the files written. */
    public static List<Path> write(LabReport report, Path folder) {
        try {
            Files.createDirectories(folder);
            var written = new ArrayList<Path>();
            var json = folder.resolve(JSON_FILE);
            JSON.writeValue(json.toFile(), report);
            written.add(json);
            for (var chart : report.charts()) {
                written.add(ChartRenderer.render(chart, folder));
            }
            written.add(Files.writeString(folder.resolve(MARKDOWN_FILE), markdown(report)));
            return written;
        } catch (IOException ex) {
            throw new UncheckedIOException("could not write the report to " + folder, ex);
        }
    }

    /** The tables in Markdown, as report.md shows them; the console prints them too. */
    public static String console(LabReport report) {
        var out = new StringBuilder();
        for (var table : report.tables()) {
            out.append("## ").append(table.title()).append("\n\n");
            out.append(row(table.columns()));
            out.append(row(Collections.nCopies(table.columns().size(), "---")));
            table.rows().forEach(row -> out.append(row(row)));
            out.append("\n");
            if (!table.note().isEmpty()) {
                out.append(table.note()).append("\n\n");
            }
        }
        return out.toString();
    }

    /** The report in Markdown: what GitHub and every editor show, the charts beside it by relative name. */
    private static String markdown(LabReport report) {
        var header = report.header();
        var out = new StringBuilder("# Lab " + header.command() + "\n\n");
        out.append(report.summary()).append("\n\n");
        out.append(keyValues("Parameters", Parameters.of(report.settings())));
        out.append(keyValues("Target", header.target()));
        out.append(keyValues("Machine", Parameters.of(header.machine())));
        out.append(keyValues("Versions", header.versions()));
        out.append("Started " + header.startedAt() + ", finished " + header.finishedAt() + ".\n\n");
        out.append(console(report));
        if (!report.charts().isEmpty()) {
            out.append("## Charts\n\n");
            report.charts().forEach(chart -> out.append("![" + chart.title() + "](" + chart.file() + ".png)\n\n"));
        }
        return out.toString();
    }

    private static String keyValues(String title, Map<String, String> values) {
        return "**" + title + ":** "
                + new TreeMap<>(values)
                        .entrySet().stream()
                                .map(entry -> entry.getKey() + " `" + entry.getValue() + "`")
                                .collect(Collectors.joining(", "))
                + "\n\n";
    }

    private static String row(List<String> cells) {
        return "| " + cells.stream().map(text -> text.replace("|", "\\|")).collect(Collectors.joining(" | ")) + " |\n";
    }
}
