package dev.orderpipeline.lab;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Database;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.TargetOptions;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.Versions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * An experiment command: the usage template (picocli's subclasses inherit these attributes and add their name and
 * description), {@code --output} and the stack's options; it starts the stack, runs the experiment ({@link Experiment}), stops the stack, and writes and prints the report folder.
 */
@Command(
        sortOptions = false,
        usageHelpAutoWidth = true,
        showDefaultValues = true,
        mixinStandardHelpOptions = true,
        versionProvider = LabVersion.class)
public abstract class LabCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(LabCommand.class);

    /** The default report folder is {@code lab-results/<this>-<command>}. */
    private static final DateTimeFormatter FOLDER_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    @Mixin
    protected TargetOptions targetOptions = new TargetOptions();

    /** Runs the experiment against an open target and returns its report. */
    protected abstract LabReport run(StackTarget target, Progress progress);

    /** Opens what the runs go against: the stack the options describe, with its workers unless the runs start theirs. */
    protected StackTarget open() {
        return targetOptions.open(comparesLockStrategies(), !startsItsOwnWorkers());
    }

    /**
     * Whether the experiment fills the command topic itself and starts and stops its own worker processes (drain,
     * group): the stack starts without workers.
     */
    protected boolean startsItsOwnWorkers() {
        return false;
    }

    /**
     * Whether the runs use the lab's database-lock strategies, so a stack the lab starts switches order-api's lab
     * part on (and relaxes its database's schema); experiments on the pipeline alone run the production API.
     */
    protected boolean comparesLockStrategies() {
        return false;
    }

    /** Runs the experiment and returns its report; the progress line closes after it. */
    protected LabReport execute(Progress progress) {
        progress.phase("starting the pipeline", 0);
        try (var target = open()) {
            log.info("Pipeline up: {}", target.description());
            var report = run(target, progress);
            progress.phase("stopping", 0);
            return report;
        }
    }

    /** The header every report starts with; finished now. */
    protected final ReportHeader header(StackTarget target) {
        return header(target.description(), targetOptions.projectDirectory(), target.database());
    }

    @Option(
            order = 30,
            names = "--output",
            paramLabel = "DIR",
            description = "Report folder; default: lab-results/<timestamp>-<command>.",
            showDefaultValue = Visibility.NEVER)
    @Nullable
    Path output;

    private Instant startedAt = Instant.now();

    /** The machine's load average when the command started: other work on it shows in the figures. */
    private String loadAtStart = "";

    /** {@code compare}, {@code ceiling}: the name its {@code @Command} gives it. */
    protected final String name() {
        return Objects.requireNonNull(getClass().getAnnotation(Command.class), "@Command")
                .name();
    }

    @Override
    public final Integer call() {
        startedAt = Instant.now();
        loadAtStart = loadAverage();
        LabReport report;
        try (var progress = Progress.toStandardError(name())) {
            report = execute(progress);
        }
        var folder = output != null
                ? output
                : Path.of("lab-results", FOLDER_TIME.format(report.header().startedAt()) + "-" + name());
        ReportWriter.write(report, folder);
        System.out.print(ReportWriter.console(report));
        System.out.println();
        System.out.println("Report: " + folder.toAbsolutePath().normalize().resolve(ReportWriter.MARKDOWN_FILE));
        if (!report.holds()) {
            System.err.println(name() + ": the run did not hold (the report says which criteria or invariants failed)");
            return 1;
        }
        return 0;
    }

    /**
     * The header every report starts with, finished now: what ran against {@code target} (plus the load average at
     * start and end), on which machine, with which versions.
     */
    protected final ReportHeader header(
            Map<String, String> target, @Nullable Path projectDirectory, @Nullable Database database) {
        var described = new LinkedHashMap<>(target);
        described.put("loadAverage", "at start " + loadAtStart + "; at end " + loadAverage());
        return new ReportHeader(
                name(),
                described,
                Machine.current(),
                Versions.collect(projectDirectory, database),
                startedAt,
                Instant.now());
    }

    /** The 1, 5 and 15 minute load averages ({@code /proc/loadavg}), or n/a. */
    static String loadAverage() {
        try {
            var fields = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException ex) {
            return "n/a";
        }
    }
}
