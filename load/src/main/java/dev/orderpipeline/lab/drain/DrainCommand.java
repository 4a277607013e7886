package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.Options;
import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.TargetOptions;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bin/lab drain}: how fast a worker empties a backlog, against the ceiling. Fields are filled by picocli. */
@Command(
        name = "drain",
        description = {
            "Pre-fills the command topic with COMMANDS checkouts of one product (orders inserted set-based first;"
                    + " commands sent by a fast producer exactly as order-api sends them) with no worker running, then"
                    + " starts --workers"
                    + " worker process(es) and measures commands/s from their start until the consumer group's lag is"
                    + " zero, the worker's RSS, and the invariants.",
            "Then the ceiling on the same database to compare with: the worker's per-command work (idempotency"
                    + " row, conditional decrement of one hot product's stock, order status, payment) applied straight"
                    + " through JDBC by one writer in batches of k commands per transaction, no Kafka; per k commands/s"
                    + " and the time of one transaction.",
            "--ceiling-only measures the ceiling alone, on a database only (no broker, no app): --database-server"
                    + " or --database-url (schema created by Flyway if missing). Worker JVM flags are those of"
                    + " checkout-worker/jvm.options unless --app-jvm-option replaces them (e.g. -Xmx192m,"
                    + " -XX:+UseSerialGC), and are recorded in the report."
        })
public final class DrainCommand extends LabCommand {

    @Mixin
    Options.Backlog backlog = new Options.Backlog(1_000_000, 1000, 1800);

    @Option(order = 4, names = "--ceiling-only", description = "Measure the ceiling alone, on a database only.")
    boolean ceilingOnly;

    @Option(
            order = 5,
            names = "--ceiling-batch-sizes",
            paramLabel = "K",
            split = ",",
            description = "Commands per transaction of the ceiling, one run each.")
    List<Integer> ceilingBatchSizes = new ArrayList<>(List.of(100, 500));

    @Option(
            order = 6,
            names = "--ceiling-commands",
            paramLabel = "N",
            description = "Commands per ceiling batch size, at most; a batch size stops after 20 s even if some are"
                    + " left.")
    int ceilingCommands = 200_000;

    @Option(
            order = 41,
            names = "--database-url",
            paramLabel = "JDBC-URL",
            description =
                    "With --ceiling-only: a database that runs already, to run on instead of one the lab creates.")
    @Nullable
    String databaseUrl;

    private DrainSettings settings() {
        return new DrainSettings(
                backlog.commands(),
                KeyDistribution.HOT,
                Math.max(1, targetOptions.workers()),
                backlog.lagInterval(),
                backlog.timeout(),
                new CeilingSettings(ceilingBatchSizes, ceilingCommands, Duration.ofSeconds(20), 1));
    }

    /** Refuses settings that do not hold before the stack starts. */
    @Override
    protected LabReport execute(Progress progress) {
        settings();
        return ceilingOnly ? ceilingOnly(progress) : super.execute(progress);
    }

    @Override
    protected boolean startsItsOwnWorkers() {
        return true;
    }

    @Override
    protected LabReport run(StackTarget stack, Progress progress) {
        var settings = settings();
        var run = new DrainExperiment(stack, settings, progress).run();
        return new DrainReport(header(stack), settings, run, List.of());
    }

    /** The ceiling alone, on the database given or one recreated on the server. */
    private LabReport ceilingOnly(Progress progress) {
        var settings = settings();
        var server = targetOptions.server();
        Require.check(
                server != null || databaseUrl != null, "--ceiling-only needs --database-server or --database-url");
        progress.phase("connecting", 0);
        var writer = databaseUrl != null
                ? targetOptions.at(databaseUrl)
                : targetOptions.recreate(Objects.requireNonNull(server), TargetOptions.CEILING_DATABASE);
        Ceiling.migrate(writer.dataSource());
        var runs = new Ceiling(writer.dataSource(), Objects.requireNonNull(settings.ceiling()), progress).run();
        var target = new LinkedHashMap<String, String>();
        target.put(
                "database",
                databaseUrl != null
                        ? "given database"
                        : "PostgreSQL server, database " + TargetOptions.CEILING_DATABASE);
        ServerCounters.settings(writer.dataSource()).forEach((name, value) -> target.put("server " + name, value));
        return new DrainReport(header(target, targetOptions.projectDirectory(), writer), settings, null, runs);
    }
}
