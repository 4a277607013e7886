package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.BacklogCommand;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.ceiling.CeilingSettings;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/lab drain}: how fast a worker empties a backlog, against the ceiling. Fields are filled by picocli. */
@Command(
        name = "drain",
        description = {
            "Pre-fills the command topic with COMMANDS checkouts (orders inserted set-based first; commands sent by a"
                    + " fast producer exactly as order-api sends them) with no worker running, then starts --workers"
                    + " worker process(es) and measures commands/s from their start until the consumer group's lag is"
                    + " zero, the drain curve, the worker's RSS and CPU, and the invariants.",
            "Then, unless --no-with-ceiling, the ceiling on the same database (one JDBC writer, batches of k) to"
                    + " compare with. Worker JVM flags are those of checkout-worker/jvm.options unless"
                    + " --app-jvm-option replaces them (e.g. -Xmx192m, -XX:+UseSerialGC), and are recorded in the"
                    + " report."
        })
public final class DrainCommand extends BacklogCommand {

    public DrainCommand() {
        super(1_000_000, 1000, 1800);
    }

    @Option(
            order = 2,
            names = "--keys",
            paramLabel = "DISTRIBUTION",
            converter = KeyDistribution.Converter.class,
            description = "How the checkouts spread over products: hot (one product), uniform:N or zipf:N:s.")
    KeyDistribution keys = new KeyDistribution.Hot();

    @Option(
            order = 3,
            names = "--with-ceiling",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Measure the ceiling just before and just after the drain, on the same database.")
    boolean withCeiling = true;

    @Option(
            order = 4,
            names = "--ceiling-batch-sizes",
            paramLabel = "K",
            split = ",",
            description = "Batch sizes of the ceiling run with the drain.")
    List<Integer> ceilingBatchSizes = new ArrayList<>(List.of(100, 500));

    @Option(
            order = 5,
            names = "--ceiling-commands",
            paramLabel = "N",
            description = "Commands per ceiling batch size, at most.")
    int ceilingCommands = 200_000;

    @Option(
            order = 6,
            names = "--ceiling-duration",
            paramLabel = "SECONDS",
            description = "A ceiling batch size stops after this many seconds.")
    int ceilingDurationSeconds = 20;

    @Override
    protected LabReport run(StackTarget stack, Progress progress) {
        var ceiling = withCeiling
                ? new CeilingSettings(
                        ceilingBatchSizes,
                        ceilingCommands,
                        Duration.ofSeconds(ceilingDurationSeconds),
                        targetOptions.synchronousCommit().equals("server") ? "on" : targetOptions.synchronousCommit())
                : null;
        var settings = new DrainSettings(
                commands, keys, Math.max(1, targetOptions.workers()), lagInterval(), timeout(), ceiling);
        var run = new DrainExperiment(stack, settings, progress).run();
        return new DrainReport(header(stack), settings, run);
    }
}
