package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.KafkaBroker;
import dev.orderpipeline.infra.LocalStack;
import dev.orderpipeline.infra.StackConfig;
import dev.orderpipeline.lab.measure.ResourceSampler;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The pipeline started by the lab from the packaged jars with infra's {@link LocalStack}: PostgreSQL, a broker,
 * {@code apiReplicas} order-api processes and the configured checkout-workers, each a process of its own, all
 * stopped on {@link #close()}.
 */
public final class StackTarget implements AutoCloseable {

    public static final String API = "order-api";
    public static final String WORKER = "checkout-worker";
    public static final String BROKER = "kafka-broker";

    /** The lab's own JVM, the client of the experiments, watched beside the stack where its cost matters. */
    public static final String LAB = "lab";

    private final LocalStack stack;
    private final Thread shutdownHook;
    private final List<ApiClient> apis;
    private final Database database;
    private final HttpClient http = ApiClient.newHttpClient();
    private final Duration timeout;

    private StackTarget(LocalStack stack, Thread shutdownHook, Duration timeout) {
        this.stack = stack;
        this.shutdownHook = shutdownHook;
        this.timeout = timeout;
        apis = stack.apis().stream().map(this::client).toList();
        database = new Database(stack.jdbcUrl(), stack.databaseUser(), stack.databasePassword());
    }

    /** Starts the stack, then the API replicas beyond the first, and waits until all are ready. */
    public static StackTarget start(StackConfig config, int apiReplicas, Duration requestTimeout) {
        var stack = new LocalStack(config);
        // the processes run in sessions of their own, so Ctrl-C reaches only the lab: it must stop them itself
        var shutdownHook = new Thread(stack::close, "lab-stack-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            stack.start();
            for (var replica = 2; replica <= apiReplicas; replica++) {
                stack.addApi();
            }
            return new StackTarget(stack, shutdownHook, requestTimeout);
        } catch (RuntimeException ex) {
            stack.close();
            removeHook(shutdownHook);
            throw ex;
        }
    }

    public LocalStack stack() {
        return stack;
    }

    /** A client of {@code app}'s endpoints (an API replica's, or a worker's metrics) on the target's HTTP client. */
    public ApiClient client(AppProcess app) {
        return new ApiClient(app, http, timeout);
    }

    /** One client per API replica; checkouts go round-robin over them. */
    public List<ApiClient> apis() {
        return apis;
    }

    public Database database() {
        return database;
    }

    public String bootstrapServers() {
        return stack.bootstrapServers();
    }

    /**
     * Starts sampling, every {@code interval}, what a run costs: the stack's app and broker processes alive now,
     * {@code workers} the lab started beside them, the lab's own JVM (the client driving them) and the database.
     */
    public ResourceSampler sample(Duration interval, List<AppProcess> workers) {
        var watched = new ArrayList<ResourceSampler.Watched>();
        stack.apis().stream()
                .filter(AppProcess::isAlive)
                .forEach(app -> watched.add(new ResourceSampler.Watched(API, app.pid())));
        Stream.concat(stack.workers().stream().filter(AppProcess::isAlive), workers.stream())
                .forEach(app -> watched.add(new ResourceSampler.Watched(WORKER, app.pid())));
        stack.cluster().stream()
                .flatMap(cluster -> cluster.brokers().stream())
                .filter(KafkaBroker::isRunning)
                .forEach(broker -> watched.add(new ResourceSampler.Watched(BROKER, broker.pid())));
        watched.add(new ResourceSampler.Watched(LAB, ProcessHandle.current().pid()));
        return ResourceSampler.start(watched, database, interval);
    }

    /** What runs, for the report: how many processes of each kind, how they were started. */
    public Map<String, String> description() {
        var config = stack.config();
        var description = new LinkedHashMap<String, String>();
        description.put("mode", "started by the lab");
        description.put("apiReplicas", Integer.toString(stack.apis().size()));
        description.put("workers", Integer.toString(stack.workers().size()));
        description.put("partitions", Integer.toString(config.partitions()));
        description.put("apiJvmOptions", String.join(" ", config.asReported(config.apiJvmOptions())));
        description.put("workerJvmOptions", String.join(" ", config.asReported(config.workerJvmOptions())));
        description.put("appArguments", String.join(" ", config.asReported(config.appArguments())));
        description.put(
                "database",
                switch (config.database()) {
                    case StackConfig.Database.Embedded ignored -> "embedded PostgreSQL";
                    case StackConfig.Database.Server ignored -> "PostgreSQL server";
                    case StackConfig.Database.Existing ignored -> "existing PostgreSQL database";
                });
        description.put("databaseDurability", database.durability());
        description.put(
                "broker",
                switch (config.broker()) {
                    case StackConfig.Broker.FromJars jars ->
                        jars.brokers() == 1
                                ? "Kafka broker from the jars"
                                : jars.brokers() + " Kafka brokers from the jars (one KRaft cluster)";
                    case StackConfig.Broker.External ignored -> "external Kafka cluster";
                });
        return description;
    }

    @Override
    public void close() {
        try {
            http.close();
        } finally {
            stack.close();
            removeHook(shutdownHook);
        }
    }

    /** Removes a hook that stops processes the lab started, unless the JVM is shutting down and runs it. */
    public static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ex) {
            // the JVM is shutting down and the hook is what closes the stack
        }
    }
}
