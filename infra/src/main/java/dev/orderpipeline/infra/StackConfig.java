package dev.orderpipeline.infra;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What {@link LocalStack} starts and where: the database, the broker, and how many API and worker processes on which
 * ports. The API serves its API on {@code apiPort} and its actuator on {@code apiManagementPort} (0: a free port
 * chosen when it starts, as for every API replica the lab adds). Worker {@code n} (from 1) listens on {@code
 * firstWorkerPort + n - 1}, its actuator included. {@code appArguments} go to every app
 * after the ones the stack sets (Spring Boot lets the last occurrence win). {@code lab} puts the lab's strategies on
 * order-api's class path ({@link #labPath()}) and switches them on ({@code orderpipeline.lab.enabled}): its
 * database-lock strategies, some wrong on purpose, and the relaxed schema they need; the lab's own stacks and {@code
 * bin/run --lab} set it, nothing else.
 */
public record StackConfig(
        Path projectDirectory,
        Path workDirectory,
        Database database,
        Broker broker,
        int apiPort,
        int apiManagementPort,
        int workers,
        int firstWorkerPort,
        int partitions,
        List<String> appJvmOptions,
        List<String> appArguments,
        boolean lab,
        Duration startupTimeout) {

    /** Where the pipeline's data lives. */
    public sealed interface Database {

        /** An embedded PostgreSQL with its data in {@code <work-dir>/postgres}, kept between runs. */
        record Embedded(int port) implements Database {
            public Embedded {
                requirePort(port, "PostgreSQL");
            }
        }

        /**
         * A server that is given: {@code url} names any database on it the user may connect to; the pipeline uses
         * {@code databaseName}, created when missing.
         */
        record Server(String url, String user, @Nullable String password, String databaseName) implements Database {
            public Server {
                if (!url.startsWith("jdbc:postgresql:")) {
                    throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + url);
                }
                if (!databaseName.matches("[A-Za-z_][A-Za-z0-9_]{0,62}")) {
                    throw new IllegalArgumentException("not a plain database name: " + databaseName);
                }
            }
        }

        /** A database that exists already and is used as it is (tests hand in a fresh one). */
        record Existing(
                String jdbcUrl, String user, @Nullable String password) implements Database {
            public Existing {
                if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
                    throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
                }
            }
        }
    }

    /** Where the Kafka cluster is. */
    public sealed interface Broker {

        /**
         * Brokers started from the Kafka jars ({@link KafkaCluster}), data in {@code <work-dir>/kafka}, kept between
         * runs: broker {@code n} (from 1) on {@code ports[n - 1]}, its controller on {@code controllerPorts[n - 1]}.
         */
        record FromJars(List<Integer> ports, List<Integer> controllerPorts) implements Broker {
            public FromJars {
                ports = List.copyOf(ports);
                controllerPorts = List.copyOf(controllerPorts);
                if (ports.isEmpty() || ports.size() != controllerPorts.size()) {
                    throw new IllegalArgumentException(
                            "each broker needs a client and a controller port: " + ports + ", " + controllerPorts);
                }
                ports.forEach(port -> requirePort(port, "Kafka"));
                controllerPorts.forEach(port -> requirePort(port, "Kafka controller"));
                var all = new HashSet<>(ports);
                all.addAll(controllerPorts);
                if (all.size() != 2 * ports.size()) {
                    throw new IllegalArgumentException(
                            "the brokers' ports must all differ: " + ports + ", " + controllerPorts);
                }
            }

            /** One broker. */
            public FromJars(int port, int controllerPort) {
                this(List.of(port), List.of(controllerPort));
            }

            /**
             * {@code brokers} brokers, broker {@code n} (from 1) on {@code port + 2(n - 1)} and its controller on
             * {@code controllerPort + 2(n - 1)}: 9092, 9094, 9096 and 9093, 9095, 9097 from bin/run's defaults.
             */
            public static FromJars spaced(int port, int controllerPort, int brokers) {
                if (brokers < 1) {
                    throw new IllegalArgumentException("at least one broker: " + brokers);
                }
                var ports = new ArrayList<Integer>();
                var controllerPorts = new ArrayList<Integer>();
                for (var index = 0; index < brokers; index++) {
                    ports.add(port + 2 * index);
                    controllerPorts.add(controllerPort + 2 * index);
                }
                return new FromJars(ports, controllerPorts);
            }

            /** {@code brokers} brokers on free ports that are none of {@code taken}. */
            public static FromJars onFreePorts(int brokers, List<Integer> taken) {
                if (brokers < 1) {
                    throw new IllegalArgumentException("at least one broker: " + brokers);
                }
                var free = FreePorts.several(2 * brokers + taken.size()).stream()
                        .filter(port -> !taken.contains(port))
                        .limit(2L * brokers)
                        .toList();
                return new FromJars(free.subList(0, brokers), free.subList(brokers, 2 * brokers));
            }

            public int brokers() {
                return ports.size();
            }
        }

        /** A cluster that is running already. */
        record External(String bootstrapServers) implements Broker {
            public External {
                if (bootstrapServers.isBlank()) {
                    throw new IllegalArgumentException("bootstrap servers must not be blank");
                }
            }
        }
    }

    public StackConfig {
        projectDirectory = projectDirectory.toAbsolutePath().normalize();
        workDirectory = workDirectory.toAbsolutePath().normalize();
        requirePort(apiPort, "order-api");
        if (apiManagementPort != 0) {
            requirePort(apiManagementPort, "order-api's actuator");
            if (apiManagementPort == apiPort) {
                throw new IllegalArgumentException(
                        "order-api's actuator needs a port of its own, not its API's " + apiPort);
            }
            if (workers > 0 && apiManagementPort >= firstWorkerPort && apiManagementPort < firstWorkerPort + workers) {
                throw new IllegalArgumentException("order-api's actuator port " + apiManagementPort
                        + " lies among the worker ports from " + firstWorkerPort);
            }
        }
        if (workers < 0) {
            throw new IllegalArgumentException("workers must not be negative: " + workers);
        }
        requirePort(firstWorkerPort, "checkout-worker");
        requirePort(firstWorkerPort + Math.max(workers, 1) - 1, "checkout-worker");
        if (workers > 0 && apiPort >= firstWorkerPort && apiPort < firstWorkerPort + workers) {
            throw new IllegalArgumentException(
                    "the API port " + apiPort + " lies among the worker ports from " + firstWorkerPort);
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be positive: " + partitions);
        }
        appJvmOptions = List.copyOf(appJvmOptions);
        appArguments = List.copyOf(appArguments);
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw new IllegalArgumentException("startup timeout must be positive: " + startupTimeout);
        }
    }

    /** order-api's management port when nothing else is said: what its application.yml sets, and bin/run's. */
    public static final int DEFAULT_API_MANAGEMENT_PORT = 9080;

    /**
     * The launcher's defaults: embedded PostgreSQL on 15432 (beside a local server on 5432), a broker on 9092/9093,
     * the API on 8080 with its actuator on a free port (bin/run asks for {@value #DEFAULT_API_MANAGEMENT_PORT}), one
     * worker on 8081, 6 command partitions, data and logs in {@code .lab/run}.
     */
    public static StackConfig defaults(Path projectDirectory) {
        return new StackConfig(
                projectDirectory,
                projectDirectory.resolve(".lab/run"),
                new Database.Embedded(15432),
                new Broker.FromJars(9092, 9093),
                8080,
                0,
                1,
                8081,
                6,
                List.of(),
                List.of(),
                false,
                Duration.ofMinutes(3));
    }

    public StackConfig withWorkDirectory(Path directory) {
        return new StackConfig(
                projectDirectory,
                directory,
                database,
                broker,
                apiPort,
                apiManagementPort,
                workers,
                firstWorkerPort,
                partitions,
                appJvmOptions,
                appArguments,
                lab,
                startupTimeout);
    }

    public StackConfig withDatabase(Database chosen) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                chosen,
                broker,
                apiPort,
                apiManagementPort,
                workers,
                firstWorkerPort,
                partitions,
                appJvmOptions,
                appArguments,
                lab,
                startupTimeout);
    }

    public StackConfig withBroker(Broker chosen) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                database,
                chosen,
                apiPort,
                apiManagementPort,
                workers,
                firstWorkerPort,
                partitions,
                appJvmOptions,
                appArguments,
                lab,
                startupTimeout);
    }

    /** The API port, and the number of workers with the port of the first. */
    public StackConfig withApps(int api, int workerCount, int firstWorker) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                database,
                broker,
                api,
                apiManagementPort,
                workerCount,
                firstWorker,
                partitions,
                appJvmOptions,
                appArguments,
                lab,
                startupTimeout);
    }

    /** The port of the API's actuator; 0 for a free one chosen when the API starts. */
    public StackConfig withApiManagementPort(int port) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                database,
                broker,
                apiPort,
                port,
                workers,
                firstWorkerPort,
                partitions,
                appJvmOptions,
                appArguments,
                lab,
                startupTimeout);
    }

    public StackConfig withPartitions(int count) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                database,
                broker,
                apiPort,
                apiManagementPort,
                workers,
                firstWorkerPort,
                count,
                appJvmOptions,
                appArguments,
                lab,
                startupTimeout);
    }

    public StackConfig withAppOptions(List<String> jvmOptions, List<String> arguments) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                database,
                broker,
                apiPort,
                apiManagementPort,
                workers,
                firstWorkerPort,
                partitions,
                jvmOptions,
                arguments,
                lab,
                startupTimeout);
    }

    /** With the lab's part of order-api switched on, or off. */
    public StackConfig withLab(boolean enabled) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                database,
                broker,
                apiPort,
                apiManagementPort,
                workers,
                firstWorkerPort,
                partitions,
                appJvmOptions,
                appArguments,
                enabled,
                startupTimeout);
    }

    public StackConfig withStartupTimeout(Duration timeout) {
        return new StackConfig(
                projectDirectory,
                workDirectory,
                database,
                broker,
                apiPort,
                apiManagementPort,
                workers,
                firstWorkerPort,
                partitions,
                appJvmOptions,
                appArguments,
                lab,
                timeout);
    }

    /**
     * The file that holds the checkout-worker's JVM flags, one per line with {@code #} comments, as a java argument
     * file: this launcher reads it, and the container image hands it to {@code java} itself. Why each flag is there
     * is written beside it.
     */
    public Path workerJvmOptionsFile() {
        return projectDirectory.resolve("checkout-worker/jvm.options");
    }

    /** The file that holds order-api's JVM flags, in the same form and read the same ways as the worker's. */
    public Path apiJvmOptionsFile() {
        return projectDirectory.resolve("order-api/jvm.options");
    }

    /**
     * The JVM flags of worker processes: {@link #appJvmOptions()} when any are given (they replace the defaults
     * whole, since collector flags cannot be combined), otherwise those of {@link #workerJvmOptionsFile()}, followed
     * by {@code -XX:AOTCache=<}{@link #workerAotCache()}{@code >} when the build made that cache: the classes the
     * worker loads at its start come ready from it (JDK 25's ahead-of-time cache, JEP 483/514), which halves the CPU
     * of its start (docs/throughput.md, "Rebalancing"). Given flags leave it out: the cache holds what a JVM with the
     * file's flags loaded.
     */
    public List<String> workerJvmOptions() {
        if (!appJvmOptions.isEmpty()) {
            return appJvmOptions;
        }
        var flags = new ArrayList<>(readJvmOptions(workerJvmOptionsFile()));
        if (workerLaunchJar().equals(workerExtractedJar())) {
            flags.add("-XX:AOTCache=" + workerAotCache());
        }
        return List.copyOf(flags);
    }

    /**
     * {@code flags} as a report shows them: a path inside the project directory relative to it, so that a committed
     * report names the repository's files and not the directory it was run from.
     */
    public List<String> asReported(List<String> flags) {
        var prefix = projectDirectory + File.separator;
        return flags.stream().map(flag -> flag.replace(prefix, "")).toList();
    }

    /** The JVM flags of order-api processes: as {@link #workerJvmOptions()}, from {@link #apiJvmOptionsFile()}. */
    public List<String> apiJvmOptions() {
        return appJvmOptions.isEmpty() ? readJvmOptions(apiJvmOptionsFile()) : appJvmOptions;
    }

    /** The flags of a java argument file of one flag per line: blank lines and {@code #} comments left out. */
    static List<String> readJvmOptions(Path file) {
        try {
            return Files.readAllLines(file).stream()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        } catch (IOException ex) {
            throw new UncheckedIOException(
                    "could not read the JVM flags of " + file + "; point --project-dir at the repository", ex);
        }
    }

    /** The jar of order-api, built by {@code mvn package}. */
    public Path apiJar() {
        return projectDirectory.resolve("order-api/target/order-api.jar");
    }

    /**
     * What the lab adds to order-api's class path when {@link #lab()} is on, built by {@code mvn package}: the jar of
     * its database-lock strategies (checkout-lab), which order-api's own jar and image never hold.
     */
    public List<Path> labPath() {
        return List.of(projectDirectory.resolve("checkout-lab/target/checkout-lab.jar"));
    }

    /** The jar of checkout-worker, built by {@code mvn package}. */
    public Path workerJar() {
        return projectDirectory.resolve("checkout-worker/target/checkout-worker.jar");
    }

    /**
     * The ahead-of-time cache of the worker's start that {@code mvn package} makes on JDK 25 and later
     * (checkout-worker's pom, profile {@code aot-cache}): a training run of the extracted jar, {@link
     * #workerExtractedJar()}, that stops once its context is refreshed and needs neither the database nor the broker.
     * It is valid for that jar and the JDK that made it only; with any other the JVM says so and starts without it.
     */
    public Path workerAotCache() {
        return projectDirectory.resolve("checkout-worker/target/aot/checkout-worker.aot");
    }

    /** The worker's jar extracted (its libraries in a folder beside it), the form an AOT cache works with. */
    public Path workerExtractedJar() {
        return projectDirectory.resolve("checkout-worker/target/aot/checkout-worker.jar");
    }

    /**
     * The jar worker processes run from: {@link #workerExtractedJar()} when the build made the AOT cache beside it,
     * otherwise {@link #workerJar()} (a JDK before 25, or a build that skipped it): a missing cache costs start time,
     * nothing else.
     */
    public Path workerLaunchJar() {
        return Files.isRegularFile(workerAotCache()) && Files.isRegularFile(workerExtractedJar())
                ? workerExtractedJar()
                : workerJar();
    }

    private static void requirePort(int port, String what) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("not a TCP port for " + what + ": " + port);
        }
    }
}
