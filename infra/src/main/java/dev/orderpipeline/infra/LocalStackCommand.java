package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The launcher's command line; fields are filled by picocli. */
@Command(
        name = "bin/run",
        sortOptions = false,
        usageHelpAutoWidth = true,
        showDefaultValues = true,
        description = {
            "Runs the order pipeline on this machine: PostgreSQL, a Kafka broker (or --brokers N), order-api and checkout-worker,"
                    + " each a process of its own. Whatever is not given is started here: an embedded PostgreSQL and"
                    + " a broker from the Kafka jars, both keeping their data in the work directory.",
            "Ctrl-C stops the apps, then the broker, then PostgreSQL."
        })
final class LocalStackCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(LocalStackCommand.class);

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    /** Read by the bin/run script, which leaves it out of what it passes on; listed here so that --help shows it. */
    @Option(
            names = "--no-build",
            description = "Start from the jars built before; without it, bin/run first builds the modules"
                    + " (mvn install, tests skipped).")
    boolean noBuild;

    @Option(
            names = "--project-dir",
            paramLabel = "DIR",
            description = "Repository root: the apps run from order-api/target and checkout-worker/target below it.")
    Path projectDirectory = Path.of(".");

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Data and logs; default: .lab/run below the project directory.",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    @Nullable
    Path workDirectory;

    @Option(
            names = "--fresh",
            description = "Delete the embedded PostgreSQL's and the broker's data and the logs first.")
    boolean fresh;

    @Option(
            names = "--database-url",
            paramLabel = "JDBC-URL",
            description = "An external PostgreSQL server, as the JDBC URL of any database on it"
                    + " (jdbc:postgresql://host:5432/postgres); default: embedded PostgreSQL.")
    @Nullable
    String databaseUrl;

    @Option(names = "--database-user", paramLabel = "USER", description = "User for --database-url.")
    String databaseUser = "postgres";

    @Option(
            names = "--database-password",
            paramLabel = "PASSWORD",
            description = "Password for --database-url; default: $ORDERPIPELINE_DATABASE_PASSWORD.",
            defaultValue = "${env:ORDERPIPELINE_DATABASE_PASSWORD}",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    @Nullable
    String databasePassword;

    @Option(
            names = "--database-name",
            paramLabel = "NAME",
            description = "Database the pipeline uses on the --database-url server; created when missing.")
    String databaseName = "orderpipeline";

    @Option(names = "--postgres-port", paramLabel = "PORT", description = "Port of the embedded PostgreSQL.")
    int postgresPort = 15432;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT[,...]",
            description = "An external Kafka cluster; default: a broker started from the Kafka jars.")
    @Nullable
    String bootstrapServers;

    @Option(
            names = "--brokers",
            paramLabel = "N",
            description = "Kafka brokers to start: one, or a KRaft cluster of N, each a process of its own and a"
                    + " voter of the quorum; with more than one the topics get min(N, 3) replicas, in sync on all but"
                    + " one, and the apps refuse topics with fewer.")
    int brokers = 1;

    @Option(
            names = "--kafka-port",
            paramLabel = "PORT",
            description = "Client port of the broker started here; broker n of --brokers uses this + 2(n - 1).")
    int kafkaPort = 9092;

    @Option(
            names = "--kafka-controller-port",
            paramLabel = "PORT",
            description = "KRaft controller port of the broker started here; broker n uses this + 2(n - 1).")
    int kafkaControllerPort = 9093;

    @Option(names = "--api-port", paramLabel = "PORT", description = "HTTP port of order-api: its API only.")
    int apiPort = 8080;

    @Option(
            names = "--api-management-port",
            paramLabel = "PORT",
            description = "HTTP port of order-api's actuator (health, info, Prometheus); 0 for a free one.")
    int apiManagementPort = StackConfig.DEFAULT_API_MANAGEMENT_PORT;

    @Option(names = "--workers", paramLabel = "N", description = "Number of checkout-worker processes.")
    int workers = 1;

    @Option(
            names = "--worker-port",
            paramLabel = "PORT",
            description = "HTTP (actuator) port of the first worker; worker n uses this port + n - 1.")
    int firstWorkerPort = 8081;

    @Option(names = "--partitions", paramLabel = "N", description = "Partitions of the checkout command topic.")
    int partitions = 6;

    @Option(
            names = "--app-jvm-option",
            paramLabel = "OPTION",
            description = "JVM option for every app process, repeatable (--app-jvm-option=-Xmx512m); any given replace"
                    + " the apps' default flags, those of order-api/jvm.options and checkout-worker/jvm.options.",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    List<String> appJvmOptions = new ArrayList<>();

    @Option(
            names = "--app-arg",
            paramLabel = "ARG",
            description = "Spring argument for every app process, repeatable (--app-arg=--logging.level.root=WARN).",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    List<String> appArguments = new ArrayList<>();

    @Option(
            names = "--lab",
            description = "Put the lab's part of order-api on its class path (checkout-lab's jar) and switch it on"
                    + " (orderpipeline.lab.enabled): its database-lock strategies behind ?strategy=, some wrong on"
                    + " purpose, and the relaxed schema they need. For lab databases only.")
    boolean lab;

    @Option(names = "--startup-timeout", paramLabel = "SECONDS", description = "How long each app may take to start.")
    int startupTimeoutSeconds = 180;

    @Option(
            names = "--prometheus",
            description = "Also start Prometheus (and prometheus-postgres-exporter if installed) from the system's"
                    + " packages, scraping the apps as the compose stack does.")
    boolean prometheus;

    @Option(names = "--prometheus-port", paramLabel = "PORT", description = "Port of Prometheus with --prometheus.")
    int prometheusPort = 9090;

    @Spec
    @Nullable
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        StackConfig config;
        try {
            config = config();
        } catch (IllegalArgumentException ex) {
            throw new ParameterException(Objects.requireNonNull(spec).commandLine(), ex.getMessage(), ex);
        }
        if (fresh) {
            deleteState(config.workDirectory());
        }
        var stack = new LocalStack(config);
        Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "local-stack-shutdown"));
        try {
            stack.start();
        } catch (RuntimeException ex) {
            if (stack.isClosed()) {
                // Ctrl-C during startup: the hook is stopping everything, the failure is its consequence
                log.debug("Startup ended by shutdown", ex);
                return 130;
            }
            log.error("The pipeline did not start: {}", ex.getMessage());
            log.debug("Startup failure", ex);
            stack.close();
            return 1;
        }
        if (prometheus) {
            try {
                var monitoring = startMonitoring(stack);
                Runtime.getRuntime().addShutdownHook(new Thread(monitoring::close, "local-monitoring-shutdown"));
            } catch (RuntimeException ex) {
                log.error("Prometheus did not start: {}", ex.getMessage());
                stack.close();
                return 1;
            }
        }
        System.out.print(stack.banner());
        if (prometheus) {
            System.out.println("  Prometheus         http://127.0.0.1:" + prometheusPort);
        }
        System.out.flush();
        stack.awaitStopped();
        return 0;
    }

    private LocalMonitoring startMonitoring(LocalStack stack) {
        // the exporter speaks libpq, not JDBC: postgresql://user@host:port/database
        var exporterSource =
                stack.jdbcUrl().replaceFirst("^jdbc:postgresql://", "postgresql://" + stack.databaseUser() + "@")
                        + (stack.jdbcUrl().contains("?") ? "&" : "?") + "sslmode=disable";
        return LocalMonitoring.start(
                stack.config().workDirectory(),
                prometheusPort,
                stack.apis().stream().map(AppProcess::metricsUrl).toList(),
                stack.workers().stream().map(AppProcess::metricsUrl).toList(),
                exporterSource);
    }

    private StackConfig config() {
        var project = projectDirectory.toAbsolutePath().normalize();
        var config = StackConfig.defaults(project)
                .withWorkDirectory(workDirectory == null ? project.resolve(".lab/run") : workDirectory)
                .withApps(apiPort, workers, firstWorkerPort)
                .withApiManagementPort(apiManagementPort)
                .withPartitions(partitions)
                .withAppOptions(appJvmOptions, appArguments)
                .withLab(lab)
                .withStartupTimeout(Duration.ofSeconds(startupTimeoutSeconds));
        config = databaseUrl == null
                ? config.withDatabase(new StackConfig.Database.Embedded(postgresPort))
                : config.withDatabase(
                        new StackConfig.Database.Server(databaseUrl, databaseUser, databasePassword, databaseName));
        config = bootstrapServers == null
                ? config.withBroker(StackConfig.Broker.FromJars.spaced(kafkaPort, kafkaControllerPort, brokers))
                : config.withBroker(new StackConfig.Broker.External(bootstrapServers));
        return config;
    }

    /** Deletes only what the launcher itself writes there: never a whole directory a user may have pointed at. */
    private static void deleteState(Path workDirectory) {
        for (var part : List.of("postgres", "kafka", "logs")) {
            var directory = workDirectory.resolve(part);
            if (!Files.isDirectory(directory)) {
                continue;
            }
            try (var paths = Files.walk(directory)) {
                for (var path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            } catch (IOException ex) {
                throw new UncheckedIOException("could not delete " + directory, ex);
            }
            log.info("Deleted {}", directory);
        }
    }
}
