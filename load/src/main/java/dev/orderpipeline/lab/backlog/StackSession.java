package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.LocalStack;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stack a backlog experiment (drain, group) runs on, started without workers, and the steps each of
 * its runs takes: workers joined, the group stable and warmed up; a backlog of its own; the offsets it starts from;
 * the processes sampled; the results and the invariants read after it.
 *
 * <p>The checkout-worker processes are the session's own, started beside the stack, each with arguments of its own on
 * top of the stack's (a consumer group, a partition count, a group protocol). A worker's name is its client id, so the
 * group's members tell which process owns which partition, and its static group instance id, so a worker killed and
 * started again takes its partitions back. Closing the session stops them, also when the lab is interrupted.
 */
public final class StackSession implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StackSession.class);
    private static final Pattern DUPLICATES =
            Pattern.compile("^checkout_commands_total\\{[^}]*outcome=\"duplicate\"[^}]*}\\s+(\\S+)", Pattern.MULTILINE);

    /** How long the results may still be arriving after the group's lag reached zero. */
    private static final Duration RESULTS_SETTLE = Duration.ofSeconds(30);

    /** Often enough for the CPU and RSS peaks, rare enough to cost the machine little during a long run. */
    private static final Duration SAMPLING = Duration.ofMillis(500);

    private static final Duration STABLE_TIMEOUT = Duration.ofMinutes(3);

    private final StackTarget target;
    private final LocalStack stack;
    private final Progress progress;
    private final GroupWatch watch;
    private final List<AppProcess> workers = new CopyOnWriteArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopAll, "lab-workers-shutdown");
    private int started;

    /** Where a run starts: the end offsets of the command and the result topics before its first command is sent. */
    public record Marks(Map<Integer, Long> commands, Map<Integer, Long> results) {}

    public StackSession(StackTarget target, Progress progress) {
        this.target = target;
        this.stack = target.stack();
        this.progress = progress;
        watch = new GroupWatch(target.bootstrapServers());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public GroupWatch watch() {
        return watch;
    }

    /**
     * Starts workers with {@code arguments} until {@code members} are alive, waits until they are ready and the group
     * is stable with them, then drains a warm-up of {@code warmup} commands, not timed.
     */
    public void join(String group, List<String> arguments, int members, int warmup, Duration timeout) {
        var starting = new ArrayList<AppProcess>();
        // counted before the first start: a worker just started is alive already
        for (var missing = members - alive().size(); missing > 0; missing--) {
            starting.add(start(arguments));
        }
        starting.forEach(this::awaitReady);
        watch.awaitStable(group, members, STABLE_TIMEOUT);
        warmUp(group, group + "-w" + members + "-warmup", warmup, timeout);
    }

    /**
     * A backlog spread over all partitions, drained and thrown away, before a measured run: workers that just joined
     * pay for class loading, JIT compilation and their first connections here rather than in the figures.
     */
    private void warmUp(String group, String tag, int commands, Duration timeout) {
        if (commands <= 0) {
            return;
        }
        var backlog = backlog(tag, new KeyDistribution.Uniform(1_000), commands);
        var start = watch.endOffsets(Topics.CHECKOUT_COMMANDS);
        progress.phase("warm-up (not reported)", backlog.size());
        CommandProducer.send(target.bootstrapServers(), backlog, 0, Progress.silent());
        new LagFollower(watch, group, Duration.ofMillis(250), true, false)
                .follow(start, backlog.size(), System.nanoTime(), timeout, progress, (sample, consumed) -> {});
    }

    /**
     * The orders of a run, in the database: products of {@code keys}, each stocked for twice the orders it got, so
     * that the run measures deciding checkouts rather than running out; {@code tag} names them and seeds the spread.
     */
    public Backlog backlog(String tag, KeyDistribution keys, int commands) {
        return new BacklogWriter(target.database().dataSource())
                .create(tag, keys, commands, orders -> (int) Math.min(Integer.MAX_VALUE, 2L * orders), progress);
    }

    /** The offsets a run starts from; take them before its first command is sent. */
    public Marks mark() {
        return new Marks(watch.endOffsets(Topics.CHECKOUT_COMMANDS), watch.endOffsets(Topics.CHECKOUT_RESULTS));
    }

    /** Samples the CPU and memory of the stack's processes, the workers alive now and the lab's own JVM. */
    public ResourceSampler sample() {
        return target.sample(SAMPLING, alive());
    }

    /**
     * Sends the backlog on a thread of its own, {@code rate} commands per second (0: as fast as one producer can).
     */
    public CompletableFuture<CommandProducer.Sent> sendInBackground(Backlog backlog, int rate) {
        return CompletableFuture.supplyAsync(
                () -> CommandProducer.send(target.bootstrapServers(), backlog, rate, Progress.silent()),
                task -> Thread.ofPlatform()
                        .name("lab-backlog-producer")
                        .daemon()
                        .start(task));
    }

    /** What a send started by {@link #sendInBackground} did, once it is done. */
    public static CommandProducer.Sent sent(CompletableFuture<CommandProducer.Sent> sending) {
        try {
            return sending.join();
        } catch (CompletionException ex) {
            var cause = ex.getCause() == null ? ex : ex.getCause();
            throw new IllegalStateException("sending the backlog failed: " + cause.getMessage(), cause);
        }
    }

    /**
     * The run's results as checkout.results holds them since {@code from}, read until every order has one or for at
     * most {@link #RESULTS_SETTLE}; see {@link ResultsScan#read}. {@code sentAtMillis} holds per order index its
     * command's record timestamp, or is empty.
     */
    public ResultsScan.Summary results(Marks from, Backlog backlog, long[] sentAtMillis) {
        return ResultsScan.read(
                target.bootstrapServers(),
                from.results(),
                backlog.indexByOrder(),
                backlog.size(),
                System.nanoTime() + RESULTS_SETTLE.toNanos(),
                sentAtMillis.length == backlog.size()
                        ? index -> TimeUnit.MILLISECONDS.toNanos(sentAtMillis[index])
                        : null);
    }

    public RunVerdict invariants(Backlog backlog) {
        return new InvariantChecker(target.database().dataSource()).verdict(backlog.initialStock());
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
        // set here rather than left to the worker's default (the host name), which every worker of the session would
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
        app.awaitReady(stack.config().startupTimeout());
    }

    /** The workers the session started that are alive now. */
    public List<AppProcess> alive() {
        return workers.stream().filter(AppProcess::isAlive).toList();
    }

    /**
     * What a worker's {@code checkout.commands{outcome=duplicate}} counter says now: deliveries it found already
     * applied. Empty when the worker does not answer (it was killed).
     */
    public Optional<Long> duplicates(AppProcess app) {
        try {
            var matcher = DUPLICATES.matcher(target.client(app).metrics());
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
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            var stopping = alive().stream()
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
            watch.close();
            StackTarget.removeHook(shutdownHook);
        }
    }
}
