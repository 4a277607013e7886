package dev.orderpipeline.lab.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
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
            for (var chart : report.charts()) {
                written.add(ChartRenderer.render(chart, folder));
            }
            written.add(Files.writeString(folder.resolve(MARKDOWN_FILE), render(report, Format.MARKDOWN)));
            written.add(Files.writeString(folder.resolve(HTML_FILE), html(report)));
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
            appendRow(text, widths.stream().map("-"::repeat).toList(), widths);
            table.rows().forEach(row -> appendRow(text, row, widths));
            if (!table.note().isEmpty()) {
                text.append(table.note()).append(System.lineSeparator());
            }
        }
        return text.toString();
    }

    private static String html(LabReport report) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Lab "
                + escape(report.header().command() + " " + report.header().startedAt())
                + "</title>\n<style>\n"
                + STYLE
                + "</style>\n</head>\n<body>\n"
                + render(report, Format.HTML)
                + "</body>\n</html>\n";
    }

    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
            table{border-collapse:collapse;margin:0.5em 0 1.5em}
            th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:right}
            th:first-child,td:first-child{text-align:left}
            th{background:#f3f3f3}
            img{max-width:100%;border:1px solid #eee;margin-bottom:1.5em}
            .meta td{text-align:left}
            """;

    /** One walk over the report for both formats, so that Markdown and HTML cannot show different things. */
    private static String render(LabReport report, Format format) {
        var header = report.header();
        var out = new StringBuilder(format.heading(1, "Lab " + header.command()));
        out.append(format.paragraph(report.summary()));
        out.append(format.keyValues("Parameters", Parameters.of(report.settings())));
        out.append(format.keyValues("Target", header.target()));
        out.append(format.keyValues("Machine", machine(header.machine())));
        out.append(format.keyValues("Versions", header.versions()));
        out.append(format.paragraph("Started " + header.startedAt() + ", finished " + header.finishedAt() + "."));
        for (var table : report.tables()) {
            out.append(format.heading(2, table.title())).append(format.table(table));
            if (!table.note().isEmpty()) {
                out.append(format.paragraph(table.note()));
            }
        }
        if (!report.charts().isEmpty()) {
            out.append(format.heading(2, "Charts"));
            report.charts().forEach(chart -> out.append(format.image(chart)));
        }
        return out.toString();
    }

    /** How each part of a report is written in Markdown and in HTML. */
    private enum Format {
        MARKDOWN,
        HTML;

        String heading(int level, String text) {
            return this == HTML
                    ? "<h" + level + ">" + escape(text) + "</h" + level + ">\n"
                    : "#".repeat(level) + " " + text + "\n\n";
        }

        String paragraph(String text) {
            return this == HTML ? "<p>" + escape(text) + "</p>\n" : text + "\n\n";
        }

        String keyValues(String title, Map<String, String> values) {
            var sorted = new TreeMap<>(values).entrySet().stream();
            if (this == HTML) {
                return heading(3, title) + "<table class=\"meta\">\n"
                        + sorted.map(entry ->
                                        "<tr>" + cell("th", entry.getKey()) + cell("td", entry.getValue()) + "</tr>\n")
                                .collect(Collectors.joining())
                        + "</table>\n";
            }
            return "**" + title + ":** "
                    + sorted.map(entry -> entry.getKey() + " `" + entry.getValue() + "`")
                            .collect(Collectors.joining(", "))
                    + "\n\n";
        }

        String table(Table table) {
            if (this == HTML) {
                return "<table>\n" + row(table.columns(), "th")
                        + table.rows().stream().map(row -> row(row, "td")).collect(Collectors.joining())
                        + "</table>\n";
            }
            return row(table.columns(), "")
                    + row(Collections.nCopies(table.columns().size(), "---"), "")
                    + table.rows().stream().map(row -> row(row, "")).collect(Collectors.joining())
                    + "\n";
        }

        private String row(List<String> cells, String tag) {
            return this == HTML
                    ? "<tr>" + cells.stream().map(text -> cell(tag, text)).collect(Collectors.joining()) + "</tr>\n"
                    : "| "
                            + cells.stream()
                                    .map(text -> text.replace("|", "\\|"))
                                    .collect(Collectors.joining(" | ")) + " |\n";
        }

        private static String cell(String tag, String text) {
            return "<" + tag + ">" + escape(text) + "</" + tag + ">";
        }

        String image(Chart chart) {
            return this == HTML
                    ? "<img id=\"" + escape(chart.file()) + "\" src=\"" + escape(chart.file()) + ".png\" alt=\""
                            + escape(chart.title()) + "\">\n"
                    : "![" + chart.title() + "](" + chart.file() + ".png)\n\n";
        }
    }

    private static Map<String, String> machine(Machine machine) {
        return Map.of(
                "cores", Integer.toString(machine.cores()),
                "memory", machine.memoryMiB() + " MiB",
                "cpu", machine.cpuModel(),
                "os", machine.os(),
                "jdk", machine.jdk());
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

    private static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
