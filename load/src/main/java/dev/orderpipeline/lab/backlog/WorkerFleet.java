package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.LocalStack;
import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * checkout-worker processes the lab starts beside the stack it started without workers, each with arguments of its
 * own on top of the stack's (a consumer group, a partition count, a group protocol). A worker's name is its client id,
 * so the group's members tell which process owns which partition, and its static group instance id, so a worker
 * killed and started again takes its partitions back. Stopped on {@link #close()}, also when the lab is interrupted.
 */
public final class WorkerFleet implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkerFleet.class);
    private static final Pattern DUPLICATES =
            Pattern.compile("^checkout_commands_total\\{[^}]*outcome=\"duplicate\"[^}]*}\\s+(\\S+)", Pattern.MULTILINE);

    private final LocalStack stack;
    private final Duration startupTimeout;
    private final List<AppProcess> workers = new CopyOnWriteArrayList<>();
    private final Thread shutdownHook;
    private final HttpClient http = ApiClient.newHttpClient();
    private int started;

    public WorkerFleet(StackTarget target) {
        this.stack = target.stack();
        this.startupTimeout = stack.config().startupTimeout();
        shutdownHook = new Thread(this::stopAll, "lab-workers-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts one worker (does not wait for it): the stack's database, broker and app options, then {@code
     * arguments}, which replace the stack's for the same property (Spring Boot would join repeated command-line
     * properties into a list instead of taking the last).
     */
    public synchronized AppProcess start(List<String> arguments) {
        started++;
        var name = "lab-worker-" + started;
        var all = new ArrayList<String>();
        all.add("--spring.datasource.url=" + stack.jdbcUrl());
        all.add("--spring.datasource.username=" + stack.databaseUser());
        all.add("--spring.kafka.bootstrap-servers=" + stack.bootstrapServers());
        all.add("--orderpipeline.topics.command-partitions=" + stack.config().partitions());
        all.addAll(stack.config().appArguments());
        all.add("--spring.kafka.client-id=" + name);
        // set here rather than left to the worker's default (the host name), which every worker of the fleet would
        // share on one machine: the second would fence the first out of the group
        all.add("--orderpipeline.worker.instance-id=" + name);
        all.addAll(arguments);
        var password = stack.databasePassword();
        var app = AppProcess.springBoot(
                name,
                stack.config().workerLaunchJar(),
                FreePorts.one(),
                stack.config().workerJvmOptions(),
                merge(all),
                password == null ? Map.of() : Map.of("SPRING_DATASOURCE_PASSWORD", password),
                stack.logDirectory().resolve(name + ".log"));
        workers.add(app);
        app.start();
        log.debug("Started {} (pid {}, log {})", name, app.pid(), app.logFile());
        return app;
    }

    /** {@code --name=value} arguments with one value per name, the last given; others as they are, in order. */
    static List<String> merge(List<String> arguments) {
        var byName = new LinkedHashMap<String, String>();
        for (var argument : arguments) {
            var equals = argument.indexOf('=');
            var name = argument.startsWith("--") && equals > 2 ? argument.substring(0, equals) : argument;
            byName.remove(name);
            byName.put(name, argument);
        }
        return List.copyOf(byName.values());
    }

    public void awaitReady(AppProcess app) {
        app.awaitReady(startupTimeout);
    }

    public List<AppProcess> alive() {
        return workers.stream().filter(AppProcess::isAlive).toList();
    }

    /**
     * What a worker's {@code checkout.commands{outcome=duplicate}} counter says now: deliveries it found already
     * applied. Empty when the worker does not answer (it was killed).
     */
    public Optional<Long> duplicates(AppProcess app) {
        try {
            var matcher = DUPLICATES.matcher(
                    ApiClient.of(app, http, Duration.ofSeconds(5)).metrics());
            return Optional.of(matcher.find() ? Math.round(Double.parseDouble(matcher.group(1))) : 0L);
        } catch (IllegalStateException ex) {
            return Optional.empty();
        }
    }

    /** Fails, with the worker's log, if one of {@code workers} has exited. */
    public static void requireAlive(List<AppProcess> workers, String during) {
        for (var worker : workers) {
            if (!worker.isAlive()) {
                throw new IllegalStateException(worker.name() + " exited during " + during + "; see its log:"
                        + System.lineSeparator() + worker.process().logTail(30));
            }
        }
    }

    /** Stops every live worker at once (SIGTERM, as an orchestrator would) and waits for them. */
    public void stopAll() {
        var running = alive();
        if (running.isEmpty()) {
            return;
        }
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            var stopping = running.stream()
                    .map(app -> CompletableFuture.runAsync(app::stop, executor))
                    .toList();
            CompletableFuture.allOf(stopping.toArray(CompletableFuture[]::new)).join();
        }
    }

    @Override
    public void close() {
        try {
            stopAll();
        } finally {
            http.close();
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException ex) {
                // the JVM is shutting down and the hook is what stops the workers
            }
        }
    }
}
