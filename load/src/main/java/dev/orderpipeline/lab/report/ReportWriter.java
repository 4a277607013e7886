package dev.orderpipeline.lab.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a report folder: {@code report.json}, one PNG per chart, {@code report.md} and {@code report.html} that
 * both show the same tables and embed the same PNGs by relative name, so the folder can be moved or opened offline.
 */
public final class ReportWriter {

    public static final String JSON_FILE = "report.json";
    public static final String MARKDOWN_FILE = "report.md";
    public static final String HTML_FILE = "report.html";

    /** The mapper the report is written with; a test reads it back with the same one. */
    public static final JsonMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private static final DateTimeFormatter FOLDER_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private ReportWriter() {}

    /** {@code lab-results/<timestamp>-<command>}: the default output folder. */
    public static Path defaultFolder(ReportHeader header) {
        return Path.of("lab-results", FOLDER_TIME.format(header.startedAt()) + "-" + header.command());
    }

    /** Writes everything into {@code folder} (created if missing) and returns the files written. */
    public static List<Path> write(LabReport report, Path folder) {
        try {
            Files.createDirectories(folder);
            var written = new ArrayList<Path>();
            var json = folder.resolve(JSON_FILE);
            JSON.writeValue(json.toFile(), report);
            written.add(json);
            var images = new ArrayList<String>();
            for (var chart : report.charts()) {
                var png = ChartRenderer.render(chart, folder);
                images.add(png.getFileName().toString());
                written.add(png);
            }
            written.add(writeString(folder.resolve(MARKDOWN_FILE), markdown(report)));
            written.add(writeString(folder.resolve(HTML_FILE), html(report)));
            return written;
        } catch (IOException ex) {
            throw new UncheckedIOException("could not write the report to " + folder, ex);
        }
    }

    /** The tables as fixed-width text for the console. */
    public static String console(LabReport report) {
        var text = new StringBuilder();
        for (var table : report.tables()) {
            text.append(System.lineSeparator()).append(table.title()).append(System.lineSeparator());
            var widths = widths(table);
            appendRow(text, table.columns(), widths);
            var rule = new ArrayList<String>();
            widths.forEach(width -> rule.add("-".repeat(width)));
            appendRow(text, rule, widths);
            table.rows().forEach(row -> appendRow(text, row, widths));
            if (!table.note().isEmpty()) {
                text.append(table.note()).append(System.lineSeparator());
            }
        }
        return text.toString();
    }

    static String markdown(LabReport report) {
        var header = report.header();
        var md = new StringBuilder();
        md.append("# Lab ").append(header.command()).append("\n\n");
        md.append(report.summary()).append("\n\n");
        md.append(keyValues("Parameters", Parameters.of(report.settings())));
        md.append(keyValues("Target", header.target()));
        md.append(keyValues("Machine", machine(header.machine())));
        md.append(keyValues("Versions", header.versions()));
        md.append("Started ")
                .append(header.startedAt())
                .append(", finished ")
                .append(header.finishedAt())
                .append(".\n\n");
        for (var table : report.tables()) {
            md.append("## ").append(table.title()).append("\n\n");
            md.append(markdownRow(table.columns()));
            md.append(markdownRow(Collections.nCopies(table.columns().size(), "---")));
            table.rows().forEach(row -> md.append(markdownRow(row)));
            md.append('\n');
            if (!table.note().isEmpty()) {
                md.append(table.note()).append("\n\n");
            }
        }
        if (!report.charts().isEmpty()) {
            md.append("## Charts\n\n");
            for (var chart : report.charts()) {
                md.append("![")
                        .append(chart.title())
                        .append("](")
                        .append(chart.file())
                        .append(".png)\n\n");
            }
        }
        return md.toString();
    }

    static String html(LabReport report) {
        var header = report.header();
        var html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Lab ")
                .append(escape(header.command()))
                .append(" ")
                .append(escape(header.startedAt().toString()))
                .append("</title>\n<style>\n")
                .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}\n")
                .append("table{border-collapse:collapse;margin:0.5em 0 1.5em}\n")
                .append("th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:right}\n")
                .append("th:first-child,td:first-child{text-align:left}\n")
                .append("th{background:#f3f3f3}\nimg{max-width:100%;border:1px solid #eee;margin-bottom:1.5em}\n")
                .append(".meta td{text-align:left}\n</style>\n</head>\n<body>\n");
        html.append("<h1>Lab ").append(escape(header.command())).append("</h1>\n");
        html.append("<p>").append(escape(report.summary())).append("</p>\n");
        html.append(htmlKeyValues("Parameters", Parameters.of(report.settings())));
        html.append(htmlKeyValues("Target", header.target()));
        html.append(htmlKeyValues("Machine", machine(header.machine())));
        html.append(htmlKeyValues("Versions", header.versions()));
        html.append("<p>Started ")
                .append(escape(header.startedAt().toString()))
                .append(", finished ")
                .append(escape(header.finishedAt().toString()))
                .append(".</p>\n");
        for (var table : report.tables()) {
            html.append("<h2>").append(escape(table.title())).append("</h2>\n<table>\n<tr>");
            table.columns()
                    .forEach(
                            column -> html.append("<th>").append(escape(column)).append("</th>"));
            html.append("</tr>\n");
            for (var row : table.rows()) {
                html.append("<tr>");
                row.forEach(cell -> html.append("<td>").append(escape(cell)).append("</td>"));
                html.append("</tr>\n");
            }
            html.append("</table>\n");
            if (!table.note().isEmpty()) {
                html.append("<p>").append(escape(table.note())).append("</p>\n");
            }
        }
        if (!report.charts().isEmpty()) {
            html.append("<h2>Charts</h2>\n");
            for (var chart : report.charts()) {
                html.append("<img id=\"")
                        .append(escape(chart.file()))
                        .append("\" src=\"")
                        .append(escape(chart.file()))
                        .append(".png\" alt=\"")
                        .append(escape(chart.title()))
                        .append("\">\n");
            }
        }
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static Map<String, String> machine(Machine machine) {
        return Map.of(
                "cores", Integer.toString(machine.cores()),
                "memory", machine.memoryMiB() + " MiB",
                "cpu", machine.cpuModel(),
                "os", machine.os(),
                "jdk", machine.jdk());
    }

    private static String keyValues(String title, Map<String, String> values) {
        var md = new StringBuilder("**").append(title).append(":** ");
        var parts = new ArrayList<String>();
        new TreeMap<>(values).forEach((key, value) -> parts.add(key + " `" + value + "`"));
        return md.append(String.join(", ", parts)).append("\n\n").toString();
    }

    private static String htmlKeyValues(String title, Map<String, String> values) {
        var html = new StringBuilder("<h3>").append(escape(title)).append("</h3>\n<table class=\"meta\">\n");
        new TreeMap<>(values)
                .forEach((key, value) -> html.append("<tr><th>")
                        .append(escape(key))
                        .append("</th><td>")
                        .append(escape(value))
                        .append("</td></tr>\n"));
        return html.append("</table>\n").toString();
    }

    private static String markdownRow(List<String> cells) {
        var escaped = cells.stream().map(cell -> cell.replace("|", "\\|")).toList();
        return "| " + String.join(" | ", escaped) + " |\n";
    }

    private static List<Integer> widths(Table table) {
        var widths = new ArrayList<Integer>();
        for (var column = 0; column < table.columns().size(); column++) {
            var width = table.columns().get(column).length();
            for (var row : table.rows()) {
                width = Math.max(width, row.get(column).length());
            }
            widths.add(width);
        }
        return widths;
    }

    private static void appendRow(StringBuilder text, List<String> cells, List<Integer> widths) {
        for (var column = 0; column < cells.size(); column++) {
            var cell = cells.get(column);
            var pad = " ".repeat(widths.get(column) - cell.length());
            // the first column names the run; numbers read better right-aligned
            text.append(column == 0 ? cell + pad : pad + cell);
            text.append(column == cells.size() - 1 ? System.lineSeparator() : "  ");
        }
    }

    private static Path writeString(Path file, String text) throws IOException {
        return Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
