package dev.orderpipeline.infra;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker in KRaft mode (broker and controller in one process), started from the kafka_2.13 jars on
 * this JVM's class path as a process of its own: a single node, or one node of a {@link KafkaCluster} when its
 * settings name the cluster's voters. Its data lives in the work directory, so a restart (or a start after
 * {@link #kill()}) finds the topics and records written before.
 *
 * <p>Layout of the work directory: {@code server.properties}, {@code log4j2.xml}, {@code data/} (the log
 * directory), {@code logs/server.log} (the broker's own log) and {@code logs/process.log} (what the JVM prints).
 */
public final class KafkaBroker implements AutoCloseable {

    /**
     * The node's place in a cluster of several: every node formats its storage with the same cluster id and names all
     * voters statically ({@code controller.quorum.voters}); node {@code n} (from 1) is the voter on
     * {@code controllerPorts[n - 1]}.
     */
    public record Membership(String clusterId, int nodeId, List<Integer> controllerPorts) {

        public Membership {
            controllerPorts = List.copyOf(controllerPorts);
            if (nodeId < 1 || nodeId > controllerPorts.size()) {
                throw new IllegalArgumentException(
                        "node id " + nodeId + " is not one of the " + controllerPorts.size() + " voters");
            }
            if (clusterId.isBlank()) {
                throw new IllegalArgumentException("a cluster needs an id");
            }
        }

        /** {@code 1@127.0.0.1:9093,2@127.0.0.1:9095,...} */
        String voters() {
            var voters = new ArrayList<String>();
            for (var index = 0; index < controllerPorts.size(); index++) {
                voters.add((index + 1) + "@127.0.0.1:" + controllerPorts.get(index));
            }
            return String.join(",", voters);
        }
    }

    /**
     * How to run the broker. {@code overrides} are extra or replaced {@code server.properties} entries (chaos
     * experiments tune timeouts with them); {@code classpath} must hold the kafka_2.13 jars and a log4j2 SLF4J
     * binding; {@code membership} is null for a single node, its own quorum.
     */
    public record Settings(
            Path workDirectory,
            int port,
            int controllerPort,
            Map<String, String> overrides,
            List<String> jvmOptions,
            String classpath,
            Duration startupTimeout,
            @Nullable Membership membership) {

        public Settings {
            workDirectory = workDirectory.toAbsolutePath().normalize();
            requirePort(port);
            requirePort(controllerPort);
            if (port == controllerPort) {
                throw new IllegalArgumentException("client and controller ports must differ: " + port);
            }
            overrides = Map.copyOf(overrides);
            jvmOptions = List.copyOf(jvmOptions);
            if (classpath.isBlank()) {
                throw new IllegalArgumentException("the broker needs a class path with the kafka_2.13 jars");
            }
            // the broker runs in its work directory, where relative entries would point nowhere
            classpath = Arrays.stream(classpath.split(File.pathSeparator))
                    .filter(entry -> !entry.isBlank())
                    .map(entry -> Path.of(entry).toAbsolutePath().normalize().toString())
                    .collect(Collectors.joining(File.pathSeparator));
            if (startupTimeout.isNegative() || startupTimeout.isZero()) {
                throw new IllegalArgumentException("startup timeout must be positive: " + startupTimeout);
            }
            if (membership != null && membership.controllerPorts().get(membership.nodeId() - 1) != controllerPort) {
                throw new IllegalArgumentException("node " + membership.nodeId() + "'s controller port "
                        + controllerPort + " is not its voter's " + membership.voters());
            }
        }

        /** Defaults: a 512 MB heap, this JVM's class path, 90 s to become ready. */
        public static Settings of(Path workDirectory, int port, int controllerPort) {
            return new Settings(
                    workDirectory,
                    port,
                    controllerPort,
                    Map.of(),
                    List.of("-Xms128m", "-Xmx512m"),
                    System.getProperty("java.class.path"),
                    Duration.ofSeconds(90),
                    null);
        }

        /** Defaults on two free ports. */
        public static Settings onFreePorts(Path workDirectory) {
            var ports = FreePorts.several(2);
            return of(workDirectory, ports.get(0), ports.get(1));
        }

        public Settings withOverrides(Map<String, String> serverProperties) {
            return new Settings(
                    workDirectory,
                    port,
                    controllerPort,
                    serverProperties,
                    jvmOptions,
                    classpath,
                    startupTimeout,
                    membership);
        }

        public Settings withJvmOptions(List<String> options) {
            return new Settings(
                    workDirectory, port, controllerPort, overrides, options, classpath, startupTimeout, membership);
        }

        public Settings withStartupTimeout(Duration timeout) {
            return new Settings(
                    workDirectory, port, controllerPort, overrides, jvmOptions, classpath, timeout, membership);
        }

        /** As one node of a cluster. */
        public Settings withMembership(Membership member) {
            return new Settings(
                    workDirectory, port, controllerPort, overrides, jvmOptions, classpath, startupTimeout, member);
        }

        /** Replicas of the internal topics and the default of new ones: the cluster's size, at most 3. */
        public int replicationFactor() {
            return membership == null
                    ? 1
                    : Math.min(3, membership.controllerPorts().size());
        }

        private static void requirePort(int port) {
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("not a TCP port: " + port);
            }
        }
    }

    private static final Logger log = LoggerFactory.getLogger(KafkaBroker.class);
    private static final String LOG4J2_RESOURCE = "kafka-broker-log4j2.xml";
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final Settings settings;
    private final ManagedProcess process;

    private KafkaBroker(Settings settings) {
        this.settings = settings;
        var command = new ArrayList<String>();
        command.add(ManagedProcess.javaExecutable());
        command.addAll(jvmOptions());
        command.add("kafka.Kafka");
        command.add(serverProperties().toString());
        this.process = new ManagedProcess(
                "kafka-broker",
                command,
                settings.workDirectory(),
                logDirectory().resolve("process.log"));
    }

    /** Starts a broker and waits until it answers; formats its storage first when the work directory is new. */
    public static KafkaBroker start(Settings settings) {
        return create(settings).start();
    }

    /** Describes a broker without starting it. */
    public static KafkaBroker create(Settings settings) {
        return new KafkaBroker(settings);
    }

    /** Starts a broker on free ports with its data in {@code workDirectory}. */
    public static KafkaBroker startOnFreePorts(Path workDirectory) {
        return start(Settings.onFreePorts(workDirectory));
    }

    /** Starts this broker again after {@link #stop()} or {@link #kill()}, on the same ports and data. */
    public synchronized KafkaBroker start() {
        var startedAt = System.nanoTime();
        launch();
        awaitReady(startedAt);
        return this;
    }

    /**
     * Starts the process without waiting for it to answer: a node of a cluster cannot answer before a majority of
     * the voters runs, so a cluster launches all of them first and then awaits each ({@link #awaitReady(long)}).
     */
    synchronized void launch() {
        FreePorts.requireFree(settings.port(), "Kafka broker");
        FreePorts.requireFree(settings.controllerPort(), "Kafka controller");
        writeConfiguration();
        if (!isFormatted()) {
            format();
        }
        process.start();
    }

    /** Waits until the launched broker answers; kills it when it does not in time. */
    synchronized void awaitReady(long launchedAtNanos) {
        try {
            awaitReachable(bootstrapServers(), settings.startupTimeout(), process);
        } catch (RuntimeException ex) {
            // a broker that never became ready must not outlive the caller, who has no handle to stop it
            process.kill();
            throw ex;
        }
        log.info(
                "Kafka broker ready at {} in {} ms (pid {}, data {})",
                bootstrapServers(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launchedAtNanos),
                process.pid(),
                dataDirectory());
    }

    /** Controlled shutdown (SIGTERM), killed after 30 s. */
    public synchronized void stop() {
        if (process.isAlive()) {
            var exitCode = process.stop(STOP_GRACE);
            log.info("Kafka broker at {} stopped (exit code {})", bootstrapServers(), exitCode);
        }
    }

    /**
     * kill -9: no controlled shutdown. The next start recovers the logs, and its controller waits for the dead
     * broker's session to expire ({@code broker.session.timeout.ms}, 9 s by default) before the new incarnation
     * registers, so that start takes about 10 s longer than one after {@link #stop()}.
     */
    public synchronized void kill() {
        if (process.isAlive()) {
            process.kill();
            log.info("Kafka broker at {} killed", bootstrapServers());
        }
    }

    /** Stops and starts again; the data survives. */
    public synchronized KafkaBroker restart() {
        stop();
        return start();
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + settings.port();
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public Settings settings() {
        return settings;
    }

    public ManagedProcess process() {
        return process;
    }

    public Path dataDirectory() {
        return settings.workDirectory().resolve("data");
    }

    public Path logDirectory() {
        return settings.workDirectory().resolve("logs");
    }

    /** The broker's own log (server.log), as opposed to {@code process.log}, what its JVM prints. */
    public Path serverLog() {
        return logDirectory().resolve("server.log");
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Waits until a cluster answers a describe-cluster request. When {@code process} is given, fails as soon as it
     * exits, with the end of its log and the broker's own log.
     */
    public static void awaitReachable(String bootstrapServers, Duration timeout, @Nullable ManagedProcess process) {
        var properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "readiness-check");
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2_000);
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 100);
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        try (var admin = Admin.create(properties)) {
            ManagedProcess.Readiness reachable =
                    () -> !admin.describeCluster(new DescribeClusterOptions().timeoutMs(1_500))
                            .nodes()
                            .get(2, TimeUnit.SECONDS)
                            .isEmpty();
            if (process != null) {
                try {
                    process.awaitReady(reachable, timeout);
                } catch (IllegalStateException ex) {
                    throw withServerLog(ex, process);
                }
            } else {
                awaitWithoutProcess(bootstrapServers, reachable, timeout);
            }
        }
    }

    private static IllegalStateException withServerLog(IllegalStateException failure, ManagedProcess process) {
        var serverLog = process.logFile().resolveSibling("server.log");
        var message = failure.getMessage() + System.lineSeparator() + "last lines of " + serverLog + ":"
                + System.lineSeparator() + ManagedProcess.tail(serverLog, 40);
        return new IllegalStateException(message, failure);
    }

    private static void awaitWithoutProcess(
            String bootstrapServers, ManagedProcess.Readiness reachable, Duration timeout) {
        var deadline = System.nanoTime() + timeout.toNanos();
        @Nullable Exception lastFailure = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                if (reachable.isReady()) {
                    return;
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Kafka at " + bootstrapServers, ex);
            } catch (Exception ex) {
                lastFailure = ex;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Kafka at " + bootstrapServers, ex);
            }
        }
        throw new IllegalStateException(
                "no Kafka cluster answered at " + bootstrapServers + " within " + timeout.toSeconds() + " s"
                        + (lastFailure == null ? "" : ": " + lastFailure),
                lastFailure);
    }

    private Path serverProperties() {
        return settings.workDirectory().resolve("server.properties");
    }

    private Path log4jConfiguration() {
        return settings.workDirectory().resolve("log4j2.xml");
    }

    private boolean isFormatted() {
        return Files.isRegularFile(dataDirectory().resolve("meta.properties"));
    }

    /** server.properties is written on every start, so overrides apply; the data directory is kept. */
    private void writeConfiguration() {
        var properties = new LinkedHashMap<String, String>();
        var membership = settings.membership();
        properties.put("process.roles", "broker,controller");
        properties.put("node.id", membership == null ? "1" : Integer.toString(membership.nodeId()));
        if (membership == null) {
            properties.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + settings.controllerPort());
        } else {
            // a static quorum: every node knows every voter, formatted with the same cluster id
            properties.put("controller.quorum.voters", membership.voters());
        }
        properties.put(
                "listeners",
                "PLAINTEXT://127.0.0.1:" + settings.port() + ",CONTROLLER://127.0.0.1:" + settings.controllerPort());
        properties.put(
                "advertised.listeners",
                "PLAINTEXT://127.0.0.1:" + settings.port() + ",CONTROLLER://127.0.0.1:" + settings.controllerPort());
        properties.put("controller.listener.names", "CONTROLLER");
        properties.put("inter.broker.listener.name", "PLAINTEXT");
        properties.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        properties.put("log.dirs", dataDirectory().toString());
        // internal topics on as many nodes as there are, up to 3 (one node: a single replica, or they could never be
        // created), and in sync on all but one, as the apps' own topics
        var replicas = Integer.toString(settings.replicationFactor());
        var minInsync = Integer.toString(Math.max(1, settings.replicationFactor() - 1));
        properties.put("offsets.topic.replication.factor", replicas);
        properties.put("transaction.state.log.replication.factor", replicas);
        properties.put("transaction.state.log.min.isr", minInsync);
        properties.put("share.coordinator.state.topic.replication.factor", replicas);
        properties.put("share.coordinator.state.topic.min.isr", minInsync);
        properties.put("default.replication.factor", replicas);
        properties.put("min.insync.replicas", minInsync);
        // consumers join at once instead of waiting 3 s for more members: faster tests and restarts
        properties.put("group.initial.rebalance.delay.ms", "0");
        // Under the consumer group protocol (KIP-848) the session timeout and the heartbeat interval are the
        // broker's, 45 s and 5 s by default: a worker that dies for good would hold its partitions for 45 s whatever
        // the worker asks. This broker uses the session the workers ask for under the classic protocol (15 s,
        // orderpipeline.worker.session-timeout) and a 3 s heartbeat; a production cluster sets the same four.
        properties.put("group.consumer.min.session.timeout.ms", "6000");
        properties.put("group.consumer.session.timeout.ms", "15000");
        properties.put("group.consumer.min.heartbeat.interval.ms", "1000");
        properties.put("group.consumer.heartbeat.interval.ms", "3000");
        // the apps declare their topics with the partition count that the design depends on; a topic created
        // on first use would get the broker default of 1 partition and hide a missing declaration
        properties.put("auto.create.topics.enable", "false");
        properties.putAll(settings.overrides());
        var text = new StringBuilder("# written by ")
                .append(KafkaBroker.class.getName())
                .append(" on each start\n");
        properties.forEach(
                (key, value) -> text.append(key).append('=').append(value).append('\n'));
        try {
            Files.createDirectories(dataDirectory());
            Files.createDirectories(logDirectory());
            Files.writeString(serverProperties(), text);
            try (InputStream in = Objects.requireNonNull(
                    KafkaBroker.class.getResourceAsStream(LOG4J2_RESOURCE), LOG4J2_RESOURCE + " is missing")) {
                Files.copy(in, log4jConfiguration(), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(
                    "could not write the broker configuration to " + settings.workDirectory(), ex);
        }
    }

    /**
     * Formats the log directory once: a single node as a single-voter quorum with a new cluster id, a node of a
     * cluster with the cluster's id (its voters are static, in server.properties).
     */
    private void format() {
        var membership = settings.membership();
        var clusterId = membership == null ? Uuid.randomUuid().toString() : membership.clusterId();
        var command = new ArrayList<String>();
        command.add(ManagedProcess.javaExecutable());
        command.addAll(jvmOptions());
        command.addAll(List.of("kafka.tools.StorageTool", "format"));
        if (membership == null) {
            command.add("--standalone");
        }
        command.addAll(List.of("-t", clusterId, "-c", serverProperties().toString()));
        var formatter = new ManagedProcess(
                "kafka-storage-format",
                command,
                settings.workDirectory(),
                logDirectory().resolve("format.log"));
        var exitCode = formatter.runToCompletion(Duration.ofSeconds(60));
        if (exitCode != 0) {
            throw new IllegalStateException("formatting the Kafka storage failed with code " + exitCode + ":"
                    + System.lineSeparator() + formatter.logTail(30));
        }
        log.info("Formatted Kafka storage in {} (cluster id {})", dataDirectory(), clusterId);
    }

    private List<String> jvmOptions() {
        var options = new ArrayList<>(settings.jvmOptions());
        options.add("-Djava.awt.headless=true");
        options.add("-Dkafka.logs.dir=" + logDirectory());
        options.add("-Dlog4j2.configurationFile=" + log4jConfiguration());
        if (Runtime.version().feature() >= 23) {
            // JDK 23+ warns when Scala and Kafka use sun.misc.Unsafe memory access; the option appeared in 23
            options.add("--sun-misc-unsafe-memory-access=allow");
        }
        options.add("-cp");
        options.add(settings.classpath());
        return options;
    }
}
