package dev.orderpipeline.lab.ceiling;

import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.ReportCommand;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Database;
import dev.orderpipeline.lab.pipeline.FreshDatabase;
import dev.orderpipeline.lab.pipeline.TargetOptions;
import dev.orderpipeline.lab.report.LabReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/**
 * {@code bin/lab ceiling}: needs a database only, so it starts no broker and no app; by default an embedded
 * PostgreSQL configured as the one the stack runs on. Fields are filled by picocli.
 */
@Command(
        name = "ceiling",
        description = {
            "The bar for the worker: its per-command work (idempotency row, conditional decrement of one hot"
                    + " product's stock, order status, payment) applied straight through JDBC by one writer in"
                    + " batches of k commands per transaction, with set-based statements, no Kafka, durably"
                    + " (synchronous_commit on). Per k: commands/s and the time of one transaction (p50/p99).",
            "Runs on an embedded PostgreSQL like the stack's, or on --database-url (schema created by Flyway if"
                    + " missing). Writes report.json, report.md and report.html to the output folder."
        })
public final class CeilingCommand extends ReportCommand {

    @Option(
            order = 1,
            names = "--batch-sizes",
            paramLabel = "K",
            split = ",",
            description = "Commands per transaction, one run each.")
    List<Integer> batchSizes = new ArrayList<>(List.of(1, 10, 100, 500));

    @Option(
            order = 2,
            names = "--commands",
            paramLabel = "N",
            description = "Commands per batch size, at most (orders inserted for it).")
    int commands = 100_000;

    @Option(
            order = 3,
            names = "--duration",
            paramLabel = "SECONDS",
            description = "A batch size stops after this many seconds even if commands are left.")
    int durationSeconds = 20;

    @Option(
            order = 4,
            names = "--synchronous-commit",
            paramLabel = "VALUE",
            description = "synchronous_commit of the writer's session: on (durable) or off.")
    String synchronousCommit = "on";

    @Option(
            order = 5,
            names = "--database-url",
            paramLabel = "JDBC-URL",
            description = "A database to run on; default: an embedded PostgreSQL started for the run.")
    @Nullable
    String databaseUrl;

    @Option(
            order = 6,
            names = "--database-server",
            paramLabel = "JDBC-URL",
            description = "A PostgreSQL server to run on (a database it may run CREATE DATABASE from): the ceiling"
                    + " drops and creates the database " + CeilingCommand.DATABASE + " there. The embedded server runs"
                    + " without fsync; durable figures need a server like this one.")
    @Nullable
    String databaseServer;

    static final String DATABASE = "orderpipeline_ceiling";

    @Option(order = 7, names = "--database-user", paramLabel = "USER", description = "User for --database-url.")
    String databaseUser = "postgres";

    @Option(
            order = 8,
            names = "--database-password",
            paramLabel = "PASSWORD",
            description = "Password for --database-url; default: $ORDERPIPELINE_DATABASE_PASSWORD.",
            defaultValue = "${env:ORDERPIPELINE_DATABASE_PASSWORD}",
            showDefaultValue = Visibility.NEVER)
    @Nullable
    String databasePassword;

    @Option(
            order = 9,
            names = "--project-dir",
            paramLabel = "DIR",
            defaultValue = "${sys:lab.projectDir:-.}",
            description = "Repository root, for the report's versions; bin/lab sets it.",
            showDefaultValue = Visibility.NEVER)
    Path projectDirectory = Path.of(".");

    @Option(
            order = 10,
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where the embedded PostgreSQL keeps its data, emptied first; default: .lab/lab below the"
                    + " project directory.",
            showDefaultValue = Visibility.NEVER)
    @Nullable
    Path workDirectory;

    @Override
    protected LabReport execute(Progress progress) {
        var settings =
                new CeilingSettings(batchSizes, commands, Duration.ofSeconds(durationSeconds), synchronousCommit);
        var project = projectDirectory.toAbsolutePath().normalize();
        var given = databaseUrl != null || databaseServer != null;
        progress.phase(given ? "connecting" : "starting PostgreSQL", 0);
        try (var server = given ? null : embedded(project)) {
            var database = server != null
                    ? new Database(server.ensureDatabase("orderpipeline"), server.user(), server.password())
                    : new Database(givenUrl(), databaseUser, databasePassword);
            Ceiling.migrate(database.dataSource());
            var runs = new Ceiling(database.dataSource(), settings, progress).run();
            var target = new LinkedHashMap<String, String>();
            target.put(
                    "database",
                    server != null
                            ? "embedded PostgreSQL (as the stack's)"
                            : databaseServer != null ? "PostgreSQL server, database " + DATABASE : "given database");
            ServerCounters.settings(database.dataSource())
                    .forEach((name, value) -> target.put("server " + name, value));
            target.put("writer synchronous_commit", settings.synchronousCommit());
            return new CeilingReport(header(target, project, database), settings, runs);
        }
    }

    /** A fresh database on {@code --database-server}, or {@code --database-url} as it is. */
    private String givenUrl() {
        return databaseServer != null
                ? FreshDatabase.recreate(databaseServer, databaseUser, databasePassword, DATABASE)
                : Objects.requireNonNull(databaseUrl);
    }

    private Postgres embedded(Path project) {
        var work = workDirectory != null
                ? workDirectory.toAbsolutePath().normalize()
                : project.resolve(".lab").resolve("lab");
        var data = work.resolve("ceiling-postgres");
        TargetOptions.deleteRecursively(data);
        return Postgres.embedded(FreePorts.one(), data, true);
    }
}
