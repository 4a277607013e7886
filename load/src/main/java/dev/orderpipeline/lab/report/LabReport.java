package dev.orderpipeline.lab.report;

import java.util.List;

/** A command's results, as data (serialized to report.json) and as the tables and charts shown to people. */
public interface LabReport {

    ReportHeader header();

    /**
     * The experiment's settings, its options as given or defaulted: report.json holds them once, as this record, and
     * the Markdown shows them as the run's parameters.
     */
    Record settings();

    /** One or two sentences on what was run, above the tables. */
    String summary();

    List<Table> tables();

    List<Chart> charts();

    /**
     * Whether the run met what its experiment judges as pass or fail; the command exits with code 1 when it did not,
     * after writing the report, so that a script or a CI job running it sees the failure. Chaos: every criterion of
     * its verdict. Drain, group: every invariant. Compare, soak: every run of the pipeline safe (nothing oversold,
     * lost or charged twice), since orders left open past capacity are a figure and the lab's lock strategies, the
     * naive ones included, are measured, not judged.
     */
    default boolean holds() {
        return true;
    }
}
