package dev.orderpipeline.lab.ceiling;

import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.ReportCommand;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Database;
import dev.orderpipeline.lab.pipeline.DatabaseOptions;
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

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Option(
            order = 41,
            names = "--database-url",
            paramLabel = "JDBC-URL",
            description = "A database that runs already, to run on instead of one the lab creates.")
    @Nullable
    String databaseUrl;

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
            names = "--writers",
            paramLabel = "N",
            description = "Connections writing at once, all on the one product: 1 is the worker's case; more with"
                    + " --batch-sizes 1 is the hot row's ceiling for one transaction per checkout, as the lock"
                    + " strategies commit.")
    int writers = 1;

    @Override
    protected LabReport execute(Progress progress) {
        var settings = new CeilingSettings(
                batchSizes, commands, Duration.ofSeconds(durationSeconds), synchronousCommit, writers);
        var server = database.server();
        var given = databaseUrl == null ? null : database.at(databaseUrl);
        progress.phase(given != null || server != null ? "connecting" : "starting PostgreSQL", 0);
        try (var embedded = given != null || server != null ? null : embedded()) {
            var writer = embedded != null
                    ? new Database(embedded.ensureDatabase("orderpipeline"), embedded.user(), embedded.password())
                    : server != null
                            ? database.recreate(server, DatabaseOptions.CEILING_DATABASE)
                            : Objects.requireNonNull(given);
            Ceiling.migrate(writer.dataSource());
            var runs = new Ceiling(writer.dataSource(), settings, progress).run();
            var target = new LinkedHashMap<String, String>();
            target.put(
                    "database",
                    embedded != null
                            ? "embedded PostgreSQL (as the stack's)"
                            : server != null
                                    ? "PostgreSQL server, database " + DatabaseOptions.CEILING_DATABASE
                                    : "given database");
            ServerCounters.settings(writer.dataSource()).forEach((name, value) -> target.put("server " + name, value));
            target.put("writer synchronous_commit", settings.synchronousCommit());
            return new CeilingReport(header(target, database.projectDirectory(), writer), settings, runs);
        }
    }

    private Postgres embedded() {
        var data = database.workDirectory().resolve("ceiling-postgres");
        TargetOptions.deleteRecursively(data);
        return Postgres.embedded(FreePorts.one(), data, true);
    }
}
