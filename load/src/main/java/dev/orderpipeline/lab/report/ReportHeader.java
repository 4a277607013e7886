package dev.orderpipeline.lab.report;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every report starts with: which command ran against what, where and when.
 *
 * @param command {@code compare} or {@code soak}
 * @param target what the run was aimed at (processes started, URLs)
 * @param machine the machine
 * @param versions of the lab, the JDK, Kafka's client, PostgreSQL and the code (git commit) where known
 * @param startedAt when the command started
 * @param finishedAt when the last run ended
 */
public record ReportHeader(
        String command,
        Map<String, String> target,
        Machine machine,
        Map<String, String> versions,
        Instant startedAt,
        Instant finishedAt) {

    public ReportHeader {
        target = new LinkedHashMap<>(target);
        versions = new LinkedHashMap<>(versions);
    }
}
