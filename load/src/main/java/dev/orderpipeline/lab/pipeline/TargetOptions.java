package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.infra.StackConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/**
 * Options every lab command that starts the pipeline shares: how to start it, and where its database runs (a server to
 * create the lab's own on, otherwise an embedded one) and the directories the lab works in.
 */
public final class TargetOptions {

    /** The user the lab connects to a {@code --database-server} (and drain's {@code --database-url}) as. */
    private static final String DATABASE_USER = "postgres";

    /** The apps' sessions' {@code synchronous_commit}, and the drain's ceiling writer's: every commit durable. */
    public static final String SYNCHRONOUS_COMMIT = "on";

    @Option(
            order = 43,
            names = "--database-password",
            paramLabel = "PASSWORD",
            description =
                    "Password of the postgres user on --database-server; default: $ORDERPIPELINE_DATABASE_PASSWORD.",
            defaultValue = "${env:ORDERPIPELINE_DATABASE_PASSWORD}",
            showDefaultValue = Visibility.NEVER)
    @Nullable
    String databasePassword;

    @Option(
            order = 44,
            names = "--database-server",
            paramLabel = "JDBC-URL",
            description = "A PostgreSQL server to run on instead of an embedded one (a database it may run CREATE"
                    + " DATABASE from, e.g. jdbc:postgresql://127.0.0.1:5432/postgres): the lab drops and creates a"
                    + " database of its own there at each start (" + LAB_DATABASE
                    + "; drain --ceiling-only's "
                    + CEILING_DATABASE + "). The embedded server flushes its WAL as a server does (fsync on); the"
                    + " report's databaseDurability says how the one run on was set.")
    @Nullable
    String databaseServer;

    /** The database the lab creates afresh on a {@code --database-server}. */
    public static final String LAB_DATABASE = "orderpipeline_lab";

    /** The database the ceiling creates afresh on a {@code --database-server}. */
    public static final String CEILING_DATABASE = "orderpipeline_ceiling";

    /**
     * The repository root, which bin/lab passes as {@code lab.projectDir}: the apps run from order-api/target and
     * checkout-worker/target below it, the report's versions are read there.
     */
    public Path projectDirectory() {
        return Path.of(System.getProperty("lab.projectDir", "."))
                .toAbsolutePath()
                .normalize();
    }

    /** Where the processes the lab starts keep their data and logs, emptied at each start. */
    public Path workDirectory() {
        return projectDirectory().resolve(".lab").resolve("lab");
    }

    /** A database that runs already, reached as the given user with the given password. */
    public Database at(String jdbcUrl) {
        return new Database(jdbcUrl, DATABASE_USER, databasePassword);
    }

    public @Nullable String server() {
        return databaseServer;
    }

    /**
     * The database {@code name} dropped (closing any session still on it) and created empty on {@code
     * --database-server}, a database there the user may run CREATE DATABASE from: every run starts clean, as it does
     * on the embedded server whose data directory is emptied.
     */
    public Database recreate(String serverUrl, String name) {
        var server = Postgres.external(serverUrl, DATABASE_USER, databasePassword);
        try (var connection = server.connect(serverUrl);
                var statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not recreate database " + name + " on " + serverUrl, ex);
        }
        return new Database(server.jdbcUrl(name), DATABASE_USER, databasePassword);
    }

    @Option(
            order = 45,
            names = "--api-replicas",
            paramLabel = "N",
            description = "order-api processes to start (2 shows app-lock failing).")
    int apiReplicas = 1;

    @Option(order = 46, names = "--workers", paramLabel = "N", description = "checkout-worker processes to start.")
    int workers = 1;

    @Option(
            order = 46,
            names = "--brokers",
            paramLabel = "N",
            description = "Kafka brokers to start: one, or a KRaft cluster of N (bin/run --brokers), whose topics get"
                    + " min(N, 3) replicas, in sync on all but one.")
    int brokers = 1;

    @Option(
            order = 47,
            names = "--partitions",
            paramLabel = "N",
            description = "Partitions of the checkout command topic.")
    int partitions = 6;

    @Option(
            order = 50,
            names = "--app-jvm-option",
            paramLabel = "OPTION",
            description = "JVM option for every app process, repeatable (--app-jvm-option=-Xmx512m); any given replace"
                    + " the apps' default flags, those of order-api/jvm.options and checkout-worker/jvm.options.",
            showDefaultValue = Visibility.NEVER)
    List<String> appJvmOptions = new ArrayList<>();

    @Option(
            order = 51,
            names = "--app-arg",
            paramLabel = "ARG",
            description = "Spring argument for every app process, repeatable.")
    List<String> appArguments = new ArrayList<>();

    @Option(
            order = 52,
            names = "--request-timeout",
            paramLabel = "SECONDS",
            description = "Timeout of one HTTP request.")
    int requestTimeoutSeconds = 30;

    public int requestTimeoutSeconds() {
        return requestTimeoutSeconds;
    }

    /** Workers to start: with the stack, or after the preparation for the experiments that start their own. */
    public int workers() {
        return workers;
    }

    /**
     * A stack started now (which takes a while: the apps start in parallel), with order-api's lab part switched on
     * when {@code lockStrategies}; without checkout-workers unless {@code workers}, for the experiments that start
     * their own once the database and the topic are prepared (drain, group).
     */
    public StackTarget open(boolean lockStrategies, boolean workers) {
        var config = stackConfig().withLab(lockStrategies);
        return StackTarget.start(
                workers ? config : config.withApps(config.apiPort(), 0, config.firstWorkerPort()),
                apiReplicas,
                Duration.ofSeconds(requestTimeoutSeconds));
    }

    /** The embedded default on free ports, in a work directory emptied first: every run starts clean. */
    StackConfig stackConfig() {
        if (apiReplicas < 1 || workers < 0 || partitions < 1 || brokers < 1) {
            throw new IllegalArgumentException(
                    "--api-replicas, --brokers and --partitions must be positive, --workers not negative");
        }
        var project = projectDirectory();
        var work = workDirectory();
        for (var owned : List.of("postgres", "kafka", "logs")) {
            deleteRecursively(work.resolve(owned));
        }
        var ports = FreePorts.several(4);
        StackConfig.Database stackDatabase = new StackConfig.Database.Embedded(ports.get(0));
        if (databaseServer != null) {
            recreate(databaseServer, LAB_DATABASE);
            stackDatabase =
                    new StackConfig.Database.Server(databaseServer, DATABASE_USER, databasePassword, LAB_DATABASE);
        }
        return StackConfig.defaults(project)
                .withWorkDirectory(work)
                .withDatabase(stackDatabase)
                .withBroker(
                        brokers == 1
                                ? new StackConfig.Broker.FromJars(ports.get(1), ports.get(2))
                                : StackConfig.Broker.FromJars.onFreePorts(brokers, ports))
                .withApps(ports.get(3), workers, freeRange(Math.max(workers, 1), ports))
                .withPartitions(partitions)
                .withAppOptions(appJvmOptions, appArguments());
    }

    /**
     * The apps' arguments: their database sessions durable (a Hikari connection-init statement), unless an {@code
     * --app-arg} sets that statement itself (Spring Boot would join the two into one invalid list).
     */
    private List<String> appArguments() {
        var arguments = new ArrayList<String>();
        var initSql = "--spring.datasource.hikari.connection-init-sql=";
        if (appArguments.stream().noneMatch(argument -> argument.startsWith(initSql))) {
            arguments.add(initSql + "SET synchronous_commit TO " + SYNCHRONOUS_COMMIT);
        }
        arguments.addAll(appArguments);
        return arguments;
    }

    /** The first of {@code count} consecutive free ports that collide with none of {@code taken}. */
    private static int freeRange(int count, List<Integer> taken) {
        for (var attempt = 0; attempt < 50; attempt++) {
            var first = FreePorts.one();
            var free = first + count - 1 <= 65_535;
            for (var port = first; free && port < first + count; port++) {
                free = !taken.contains(port) && FreePorts.isFree(port);
            }
            if (free) {
                return first;
            }
        }
        throw new IllegalStateException("found no " + count + " consecutive free ports for the workers");
    }

    /** Deletes a directory of the lab's with everything in it; nothing when it is not there. */
    public static void deleteRecursively(Path directory) {
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
