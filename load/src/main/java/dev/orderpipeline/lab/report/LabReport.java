package dev.orderpipeline.lab.report;

import java.util.List;

/** A command's results, as data (serialized to report.json) and as the tables and charts shown to people. */
public interface LabReport {

    ReportHeader header();

    /** One or two sentences on what was run, above the tables. */
    String summary();

    List<Table> tables();

    List<Chart> charts();
}
