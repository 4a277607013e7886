package dev.orderpipeline.lab.report;

import java.nio.file.Path;

/** The lab results committed under docs/results, as recorded figures for the reports' tests. */
public final class CommittedReports {

    /** Surefire runs in the module directory. */
    public static final Path RESULTS = Path.of("..", "docs", "results");

    private CommittedReports() {}

    /** The report.json of {@code docs/results/<folder>} read as {@code type}. */
    public static <R extends LabReport> R read(String folder, Class<R> type) {
        return ReportWriter.JSON.readValue(
                RESULTS.resolve(folder).resolve(ReportWriter.JSON_FILE).toFile(), type);
    }
}
