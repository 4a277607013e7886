package dev.orderpipeline.lab;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.Target;
import dev.orderpipeline.lab.pipeline.TargetOptions;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.Versions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What every experiment command does around its runs: open the target (start the stack or use the URLs), listen to
 * checkout results when the broker is known, run, write the report folder, print the tables, stop what it started.
 */
public abstract class LabCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(LabCommand.class);

    @Mixin
    protected TargetOptions targetOptions = new TargetOptions();

    @Option(
            order = 30,
            names = "--output",
            paramLabel = "DIR",
            description = "Report folder; default: lab-results/<timestamp>-<command>.",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    @Nullable
    Path output;

    /** The machine's load average when the command started: other work on it shows in the figures. */
    private String loadAtStart = "";

    /** {@code compare}, {@code soak}. */
    protected abstract String name();

    /** Runs the experiment against an open target and returns its report. */
    protected abstract LabReport run(
            Target target, Progress progress, @Nullable ResultsListener results, Instant startedAt);

    /** Opens what the runs go against: by default the target the options describe, with its workers. */
    protected Target open() {
        return targetOptions.open(comparesLockStrategies());
    }

    /**
     * Whether the runs use the lab's database-lock strategies, so a stack the lab starts switches order-api's lab
     * part on (and relaxes its database's schema); experiments on the pipeline alone run the production API.
     */
    protected boolean comparesLockStrategies() {
        return false;
    }

    /**
     * Whether the lab's consumer of {@code checkout.results} runs along (it times kafka's outcomes as they come).
     * Experiments that read the results after a run turn it off, so it takes no CPU from what they measure.
     */
    protected boolean listensToResults() {
        return true;
    }

    @Override
    public Integer call() {
        var startedAt = Instant.now();
        loadAtStart = loadAverage();
        LabReport report;
        try (var progress = Progress.toStandardError(name())) {
            progress.phase(targetOptions.startsStack() ? "starting the pipeline" : "connecting", 0);
            try (var target = open()) {
                if (targetOptions.startsStack()) {
                    log.info("Pipeline up: {}", target.description());
                }
                try (var results = listensToResults() ? listen(target, progress) : null) {
                    report = run(target, progress, results, startedAt);
                }
                progress.phase("stopping", 0);
            }
        }
        var folder = output != null ? output : ReportWriter.defaultFolder(report.header());
        var files = ReportWriter.write(report, folder);
        System.out.print(ReportWriter.console(report));
        System.out.println();
        System.out.println("Report: " + folder.toAbsolutePath().normalize().resolve(ReportWriter.HTML_FILE));
        log.debug("Wrote {}", files);
        return 0;
    }

    /** The header every report starts with; finished now. */
    protected ReportHeader header(Map<String, String> parameters, Target target, Instant startedAt) {
        var description = new java.util.LinkedHashMap<>(target.description());
        description.put("loadAverage", "at start " + loadAtStart + "; at end " + loadAverage());
        return new ReportHeader(
                name(),
                parameters,
                description,
                Machine.current(),
                Versions.collect(targetOptions.projectDirectory(), target.database()),
                startedAt,
                Instant.now());
    }

    /** The 1, 5 and 15 minute load averages ({@code /proc/loadavg}), or n/a. */
    public static String loadAverage() {
        try {
            var fields = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                    .strip()
                    .split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (java.io.IOException | RuntimeException ex) {
            return "n/a";
        }
    }

    private static @Nullable ResultsListener listen(Target target, Progress progress) {
        var bootstrap = target.bootstrapServers();
        if (bootstrap == null) {
            return null;
        }
        try {
            return ResultsListener.start(bootstrap, Duration.ofSeconds(60));
        } catch (RuntimeException ex) {
            progress.note("Cannot read checkout.results (" + ex.getMessage() + "): kafka's time to outcome is n/a");
            return null;
        }
    }
}
