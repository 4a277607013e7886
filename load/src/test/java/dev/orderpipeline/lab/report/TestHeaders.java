package dev.orderpipeline.lab.report;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** The header of a report made in a test: a fixed machine and versions, a run from 10:00 on 2026-01-01. */
public final class TestHeaders {

    private static final Instant STARTED = Instant.parse("2026-01-01T10:00:00Z");

    private TestHeaders() {}

    /** The header of {@code experiment}'s report against {@code target}, a run of {@code length}. */
    public static ReportHeader of(String experiment, Map<String, String> target, Duration length) {
        return new ReportHeader(
                experiment,
                target,
                new Machine(2, 4096, "test CPU", "Linux", "JDK"),
                Map.of("lab", "test"),
                STARTED,
                STARTED.plus(length));
    }

    /** The same, against a stack the lab started. */
    public static ReportHeader of(String experiment, Duration length) {
        return of(experiment, Map.of("mode", "started by the lab"), length);
    }
}
