package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The whole pipeline on one machine, each part a process of its own: PostgreSQL, a Kafka broker (or a cluster of
 * several), order-api and checkout-worker. Starts what {@link StackConfig} does not point at, in dependency order, and stops it in the
 * reverse order: the apps first (API before workers, so no command is published that no worker will read), then the
 * broker, then PostgreSQL.
 *
 * <p>Also the launcher's entry point ({@code main}) and a building block for the lab, which adds, counts and kills
 * app processes while a run goes on.
 */
public final class LocalStack implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalStack.class);
    private static final String API = "order-api";
    private static final String WORKER = "checkout-worker";

    private final StackConfig config;
    private final List<AppProcess> apis = new CopyOnWriteArrayList<>();
    private final List<AppProcess> workers = new CopyOnWriteArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile @Nullable Postgres postgres;
    private volatile @Nullable KafkaCluster kafka;
    private volatile @Nullable String jdbcUrl;
    private volatile @Nullable String bootstrapServers;
    private boolean closed;
    private volatile long startedAt;

    /** Describes a stack; nothing runs before {@link #start()}. */
    public LocalStack(StackConfig config) {
        this.config = config;
    }

    /** Starts a stack and waits until every app is ready; stops what did start when something fails. */
    public static LocalStack start(StackConfig config) {
        var stack = new LocalStack(config);
        try {
            return stack.start();
        } catch (RuntimeException ex) {
            stack.close();
            throw ex;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalStackCommand()).execute(args));
    }

    /** Starts everything and waits until every app reports ready. Not thread-safe; {@link #close()} is. */
    public LocalStack start() {
        startedAt = System.nanoTime();
        requireJars();
        createDirectory(logDirectory());
        startDatabase();
        startBroker();
        // all app processes start at once and are awaited one by one: their start-ups overlap
        var starting = new ArrayList<AppProcess>();
        starting.add(launch(apis, newApi(API, config.apiPort(), apiManagementPort())));
        for (var index = 1; index <= config.workers(); index++) {
            starting.add(launch(workers, newWorker(WORKER + "-" + index, config.firstWorkerPort() + index - 1)));
        }
        for (var app : starting) {
            awaitReady(app);
        }
        log.info("Pipeline ready in {} ms", elapsedMillis(startedAt));
        return this;
    }

    /**
     * Describes an order-api process wired to this stack's database and broker, serving its API on {@code port} and
     * its actuator on {@code managementPort}, not started: for the lab, which runs several replicas.
     */
    public AppProcess newApi(String name, int port, int managementPort) {
        var arguments = new ArrayList<String>();
        if (config.lab()) {
            arguments.add("--orderpipeline.lab.enabled=true");
        }
        arguments.addAll(appArguments());
        return AppProcess.springBoot(
                name,
                config.apiJar(),
                config.lab() ? config.labPath() : List.of(),
                port,
                managementPort,
                config.apiJvmOptions(),
                arguments,
                apiEnvironment(),
                logDirectory().resolve(name + ".log"));
    }

    /** Describes a checkout-worker process wired to this stack's database and broker, not started. */
    public AppProcess newWorker(String name, int port) {
        return newWorker(name, port, List.of());
    }

    /**
     * As {@link #newWorker(String, int)}, with arguments after the stack's own, which win (Spring Boot takes the last
     * occurrence): e.g. a consumer group of its own for a worker that replays the command topic.
     */
    public AppProcess newWorker(String name, int port, List<String> extraArguments) {
        var arguments = new ArrayList<>(appArguments());
        // its name is its static group membership: killed and started again under the same name, it takes its
        // partitions back at once instead of waiting out the dead member's session
        arguments.add("--orderpipeline.worker.instance-id=" + name);
        arguments.addAll(extraArguments);
        return AppProcess.springBoot(
                name,
                config.workerLaunchJar(),
                port,
                config.workerJvmOptions(),
                arguments,
                appEnvironment(),
                logDirectory().resolve(name + ".log"));
    }

    /** Starts one more worker on a free port, waits until it is ready, and stops it with the stack. */
    public AppProcess addWorker() {
        return addWorker(WORKER + "-" + (workers.size() + 1), List.of());
    }

    /**
     * Starts one more worker named {@code name} with extra arguments (see {@link #newWorker(String, int, List)}) on
     * a free port, waits until it is ready, and stops it with the stack unless stopped before.
     */
    public AppProcess addWorker(String name, List<String> extraArguments) {
        var app = launch(workers, newWorker(name, FreePorts.one(), extraArguments));
        awaitReady(app);
        return app;
    }

    /**
     * Starts one more API replica on a free port, its actuator on another, waits until it is ready, and stops it with
     * the stack.
     */
    public AppProcess addApi() {
        var ports = FreePorts.several(2);
        var app = launch(apis, newApi(API + "-" + (apis.size() + 1), ports.get(0), ports.get(1)));
        awaitReady(app);
        return app;
    }

    /** The first API process: the one the banner names. */
    public AppProcess api() {
        if (apis.isEmpty()) {
            throw new IllegalStateException("no order-api process was started");
        }
        return apis.getFirst();
    }

    public List<AppProcess> apis() {
        return List.copyOf(apis);
    }

    public List<AppProcess> workers() {
        return List.copyOf(workers);
    }

    /** The processes of the stack that are alive, apps and broker (an embedded PostgreSQL runs detached). */
    public List<ProcessHandle> liveProcesses() {
        var live = new ArrayList<ProcessHandle>();
        for (var app : apps()) {
            if (app.isAlive()) {
                live.add(app.process().process().toHandle());
            }
        }
        var cluster = kafka;
        if (cluster != null) {
            cluster.brokers().stream()
                    .filter(KafkaBroker::isRunning)
                    .forEach(broker -> live.add(broker.process().process().toHandle()));
        }
        return live;
    }

    public String jdbcUrl() {
        return require(jdbcUrl, "database");
    }

    public String databaseUser() {
        return switch (config.database()) {
            case StackConfig.Database.Embedded ignored -> "postgres";
            case StackConfig.Database.Server server -> server.user();
            case StackConfig.Database.Existing existing -> existing.user();
        };
    }

    public @Nullable String databasePassword() {
        return switch (config.database()) {
            case StackConfig.Database.Embedded ignored -> null;
            case StackConfig.Database.Server server -> server.password();
            case StackConfig.Database.Existing existing -> existing.password();
        };
    }

    public String bootstrapServers() {
        return require(bootstrapServers, "Kafka");
    }

    /**
     * The PostgreSQL server this stack started (embedded) or created its database on (a given server); empty when
     * it was handed an existing database. The embedded one can be stopped and started again on the same data.
     */
    public Optional<Postgres> postgres() {
        return Optional.ofNullable(postgres);
    }

    /** The broker this stack started (the first of its cluster), empty when it uses an external cluster. */
    public Optional<KafkaBroker> broker() {
        return cluster().map(cluster -> cluster.brokers().getFirst());
    }

    /** The brokers this stack started, empty when it uses an external cluster. */
    public Optional<KafkaCluster> cluster() {
        return Optional.ofNullable(kafka);
    }

    public StackConfig config() {
        return config;
    }

    public Path logDirectory() {
        return config.workDirectory().resolve("logs");
    }

    /** What a person needs to use the running stack. */
    public String banner() {
        var text = new StringBuilder();
        var line = System.lineSeparator();
        text.append(line)
                .append("Order pipeline is up (")
                .append(String.format("%.1f", elapsedMillis(startedAt) / 1000.0))
                .append(" s)")
                .append(line);
        text.append(String.format("  %-18s %s/api%n", "API", api().baseUrl()));
        if (config.lab()) {
            text.append(String.format(
                    "  %-18s ON: ?strategy=naive|naive-tx|app-lock|db-atomic|for-update|optimistic|serializable|"
                            + "status-claim on the checkout%n",
                    "Lab"));
        }
        for (var app : apps()) {
            text.append(String.format(
                    "  %-18s pid %-7d health %s  metrics %s%n",
                    app.name(), app.pid(), app.healthUrl(), app.metricsUrl()));
        }
        var cluster = kafka;
        text.append(String.format(
                "  %-18s %s%s%n",
                "Kafka bootstrap",
                bootstrapServers(),
                cluster == null ? " (external)" : " (" + cluster.describe() + ")"));
        text.append(String.format(
                "  %-18s %s (user %s)%s%n",
                "JDBC URL", jdbcUrl(), databaseUser(), postgres != null && postgres.isEmbedded() ? " embedded" : ""));
        text.append(String.format("  %-18s %s%n", "Logs", logDirectory()));
        text.append(String.format(
                "  %-18s TOKEN=$(bin/lab token --user alice)  (--admin for products; development key)%n",
                "Bearer token"));
        text.append(String.format(
                "  %-18s curl -H \"Authorization: Bearer $TOKEN\" %s/api/orders/<id>%n", "", api().baseUrl()));
        text.append("Ctrl-C stops everything.").append(line);
        return text.toString();
    }

    /** Blocks until {@link #close()} has stopped everything (the launcher's main thread waits here). */
    public void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** Stops the APIs, then the workers, then the broker, then PostgreSQL. Safe to call twice and from a hook. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        var anythingStarted = postgres != null || kafka != null || !apis.isEmpty() || !workers.isEmpty();
        try {
            stopAll(apis);
            stopAll(workers);
            var cluster = kafka;
            if (cluster != null) {
                cluster.stop();
            }
            var database = postgres;
            if (database != null && database.isEmbedded()) {
                log.info("Stopping embedded PostgreSQL");
            }
            if (database != null) {
                database.close();
            }
            if (anythingStarted) {
                log.info("Everything stopped");
            }
        } finally {
            stopped.countDown();
        }
    }

    private void startDatabase() {
        switch (config.database()) {
            case StackConfig.Database.Embedded embedded -> {
                FreePorts.requireFree(embedded.port(), "embedded PostgreSQL");
                var dataDirectory = config.workDirectory().resolve("postgres");
                var startingAt = System.nanoTime();
                var server = Postgres.embedded(embedded.port(), dataDirectory, false);
                register(server);
                jdbcUrl = server.ensureDatabase("orderpipeline");
                log.info(
                        "Embedded PostgreSQL ready on port {} in {} ms (data {})",
                        embedded.port(),
                        elapsedMillis(startingAt),
                        dataDirectory);
            }
            case StackConfig.Database.Server given -> {
                var server = Postgres.external(given.url(), given.user(), given.password());
                register(server);
                jdbcUrl = server.ensureDatabase(given.databaseName());
                log.info("Using database {}", jdbcUrl);
            }
            case StackConfig.Database.Existing existing -> {
                jdbcUrl = existing.jdbcUrl();
                log.info("Using database {}", jdbcUrl);
            }
        }
    }

    private void startBroker() {
        switch (config.broker()) {
            case StackConfig.Broker.FromJars jars -> {
                var cluster = KafkaCluster.create(
                        config.workDirectory().resolve("kafka"), jars.ports(), jars.controllerPorts());
                synchronized (this) {
                    // registered before it starts, so that closing meanwhile still stops it
                    requireOpen();
                    kafka = cluster;
                }
                cluster.start();
                bootstrapServers = cluster.bootstrapServers();
            }
            case StackConfig.Broker.External external -> {
                KafkaBroker.awaitReachable(external.bootstrapServers(), Duration.ofSeconds(30), null);
                bootstrapServers = external.bootstrapServers();
                log.info("Using the Kafka cluster at {}", bootstrapServers);
            }
        }
    }

    private synchronized void register(Postgres server) {
        postgres = server;
        if (closed) {
            server.close();
            throw new IllegalStateException("the stack was closed while PostgreSQL started");
        }
    }

    private AppProcess launch(List<AppProcess> group, AppProcess app) {
        synchronized (this) {
            requireOpen();
            FreePorts.requireFree(app.port(), app.name());
            if (app.managementPort() != app.port()) {
                FreePorts.requireFree(app.managementPort(), app.name() + "'s actuator");
            }
            group.add(app);
            app.start();
        }
        log.info("Starting {} (log {})", app, app.logFile());
        return app;
    }

    private void awaitReady(AppProcess app) {
        app.awaitReady(config.startupTimeout());
        log.info(
                "{} ready {} ms after its start",
                app.name(),
                app.process().sinceStart().toMillis());
    }

    /** The first API's management port: the configured one, or a free one that is not its API port. */
    private int apiManagementPort() {
        if (config.apiManagementPort() != 0) {
            return config.apiManagementPort();
        }
        return FreePorts.several(2).stream()
                .filter(port -> port != config.apiPort())
                .findFirst()
                .orElseThrow();
    }

    private List<AppProcess> apps() {
        var all = new ArrayList<AppProcess>(apis);
        all.addAll(workers);
        return all;
    }

    private List<String> appArguments() {
        var arguments = new ArrayList<String>();
        arguments.add("--spring.datasource.url=" + jdbcUrl());
        arguments.add("--spring.datasource.username=" + databaseUser());
        arguments.add("--spring.kafka.bootstrap-servers=" + bootstrapServers());
        arguments.add("--orderpipeline.topics.command-partitions=" + config.partitions());
        var cluster = kafka;
        if (cluster != null && cluster.replicationFactor() > 1) {
            // on a cluster the topics replicate on it (min.insync.replicas follows: one less) and the apps refuse
            // topics with fewer replicas, as in production
            arguments.add("--orderpipeline.topics.replication-factor=" + cluster.replicationFactor());
            arguments.add("--orderpipeline.topics.min-replication-factor=" + cluster.replicationFactor());
        }
        arguments.addAll(config.appArguments());
        return arguments;
    }

    /** The password travels in the environment, where {@code ps} does not show it. */
    private Map<String, String> appEnvironment() {
        var environment = new HashMap<String, String>();
        var password = databasePassword();
        if (password != null) {
            environment.put("SPRING_DATASOURCE_PASSWORD", password);
        }
        return environment;
    }

    /**
     * The API verifies bearer tokens with the development key (from the launcher's environment, else the default
     * that {@code bin/lab token} signs with): the local run has no identity provider.
     */
    private Map<String, String> apiEnvironment() {
        var environment = appEnvironment();
        environment.put(DevelopmentTokens.KEY_ENVIRONMENT_VARIABLE, DevelopmentTokens.configuredKey());
        return environment;
    }

    private void requireJars() {
        var missing = new ArrayList<String>();
        if (!Files.isRegularFile(config.apiJar())) {
            missing.add(config.apiJar().toString());
        }
        if (config.workers() > 0 && !Files.isRegularFile(config.workerJar())) {
            missing.add(config.workerJar().toString());
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Missing " + String.join(" and ", missing)
                    + ": run mvn package first (bin/run builds them), or point --project-dir at the repository");
        }
    }

    private synchronized void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the stack is closed");
        }
    }

    private static void stopAll(List<AppProcess> group) {
        var running = group.stream().filter(AppProcess::isAlive).toList();
        if (running.isEmpty()) {
            return;
        }
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            var stopping = running.stream()
                    .map(app -> CompletableFuture.runAsync(
                            () -> {
                                var startingAt = System.nanoTime();
                                log.info("Stopping {} (pid {})", app.name(), app.pid());
                                app.stop();
                                log.info("{} stopped in {} ms", app.name(), elapsedMillis(startingAt));
                            },
                            executor))
                    .toList();
            CompletableFuture.allOf(stopping.toArray(CompletableFuture[]::new)).join();
        }
    }

    private static String require(@Nullable String value, String what) {
        if (value == null) {
            throw new IllegalStateException(what + " is not started yet");
        }
        return value;
    }

    private static void createDirectory(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException ex) {
            throw new UncheckedIOException("could not create " + directory, ex);
        }
    }

    private static long elapsedMillis(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
