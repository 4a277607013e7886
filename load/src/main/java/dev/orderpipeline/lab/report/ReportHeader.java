package dev.orderpipeline.lab.report;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every report starts with: which command ran against what (processes started, URLs), where and when.
 *
 * @param versions of PostgreSQL and the code (git commit) where known
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
