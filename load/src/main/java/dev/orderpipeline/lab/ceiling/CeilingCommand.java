package dev.orderpipeline.lab.ceiling;

import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.LabVersion;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Database;
import dev.orderpipeline.lab.pipeline.FreshDatabase;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.Versions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
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
        sortOptions = false,
        usageHelpAutoWidth = true,
        showDefaultValues = true,
        mixinStandardHelpOptions = true,
        versionProvider = LabVersion.class,
        description = {
            "The bar for the worker: its per-command work (idempotency row, conditional decrement of one hot"
                    + " product's stock, order status, payment) applied straight through JDBC by one writer in"
                    + " batches of k commands per transaction, with set-based statements, no Kafka, durably"
                    + " (synchronous_commit on). Per k: commands/s and the time of one transaction (p50/p99).",
            "Runs on an embedded PostgreSQL like the stack's, or on --database-url (schema created by Flyway if"
                    + " missing). Writes report.json, report.md and report.html to the output folder."
        })
public final class CeilingCommand implements Callable<Integer> {

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

    @Option(
            order = 30,
            names = "--output",
            paramLabel = "DIR",
            description = "Report folder; default: lab-results/<timestamp>-ceiling.",
            showDefaultValue = Visibility.NEVER)
    @Nullable
    Path output;

    @Override
    public Integer call() {
        var settings =
                new CeilingSettings(batchSizes, commands, Duration.ofSeconds(durationSeconds), synchronousCommit);
        var startedAt = Instant.now();
        var loadAtStart = LabCommand.loadAverage();
        var project = projectDirectory.toAbsolutePath().normalize();
        CeilingReport report;
        try (var progress = Progress.toStandardError("ceiling")) {
            var given = databaseUrl != null || databaseServer != null;
            progress.phase(given ? "connecting" : "starting PostgreSQL", 0);
            try (var server = given ? null : embedded(project)) {
                String url;
                if (server != null) {
                    url = server.ensureDatabase("orderpipeline");
                } else if (databaseServer != null) {
                    url = FreshDatabase.recreate(databaseServer, databaseUser, databasePassword, DATABASE);
                } else {
                    url = java.util.Objects.requireNonNull(databaseUrl);
                }
                var user = server != null ? server.user() : databaseUser;
                var database = new Database(url, user, server != null ? server.password() : databasePassword);
                Ceiling.migrate(database.dataSource());
                var runs = new Ceiling(database.dataSource(), settings, progress).run();
                var target = new LinkedHashMap<String, String>();
                target.put(
                        "database",
                        server != null
                                ? "embedded PostgreSQL (as the stack's)"
                                : databaseServer != null
                                        ? "PostgreSQL server, database " + DATABASE
                                        : "given database");
                ServerCounters.settings(database.dataSource())
                        .forEach((name, value) -> target.put("server " + name, value));
                target.put("writer synchronous_commit", settings.synchronousCommit());
                target.put("loadAverage", "at start " + loadAtStart + "; at end " + LabCommand.loadAverage());
                var header = new ReportHeader(
                        "ceiling",
                        settings.parameters(),
                        target,
                        Machine.current(),
                        Versions.collect(project, database),
                        startedAt,
                        Instant.now());
                report = new CeilingReport(header, settings, runs);
            }
        }
        var folder = output != null ? output : ReportWriter.defaultFolder(report.header());
        ReportWriter.write(report, folder);
        System.out.print(ReportWriter.console(report));
        System.out.println();
        System.out.println("Report: " + folder.toAbsolutePath().normalize().resolve(ReportWriter.HTML_FILE));
        return 0;
    }

    private Postgres embedded(Path project) {
        var work = workDirectory != null
                ? workDirectory.toAbsolutePath().normalize()
                : project.resolve(".lab").resolve("lab");
        var data = work.resolve("ceiling-postgres");
        deleteRecursively(data);
        return Postgres.embedded(FreePorts.one(), data, true);
    }

    private static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (var path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("could not empty " + directory, ex);
        }
    }
}
