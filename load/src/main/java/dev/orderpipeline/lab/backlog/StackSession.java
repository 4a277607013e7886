package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The stack a backlog experiment (drain, group) runs on, started without workers, and the steps each of
 * its runs takes: workers joined, the group stable and warmed up; a backlog of its own; the offsets it starts from;
 * the processes sampled; the results and the invariants read after it. Closing it stops the workers it started.
 */
public final class StackSession implements AutoCloseable {

    /** How long the results may still be arriving after the group's lag reached zero. */
    private static final Duration RESULTS_SETTLE = Duration.ofSeconds(30);

    /** Often enough for the CPU and RSS peaks, rare enough to cost the machine little during a long run. */
    private static final Duration SAMPLING = Duration.ofMillis(500);

    private static final Duration STABLE_TIMEOUT = Duration.ofMinutes(3);

    private final StackTarget target;
    private final Progress progress;
    private final GroupWatch watch;
    private final WorkerFleet fleet;

    /** Where a run starts: the end offsets of the command and the result topics before its first command is sent. */
    public record Marks(Map<Integer, Long> commands, Map<Integer, Long> results) {}

    public StackSession(StackTarget target, Progress progress) {
        this.target = target;
        this.progress = progress;
        watch = new GroupWatch(target.bootstrapServers());
        fleet = new WorkerFleet(target);
    }

    public GroupWatch watch() {
        return watch;
    }

    public WorkerFleet fleet() {
        return fleet;
    }

    /**
     * Starts workers with {@code arguments} until {@code members} are alive, waits until they are ready and the group
     * is stable with them, then drains a warm-up of {@code warmup} commands, not timed.
     */
    public void join(String group, List<String> arguments, int members, int warmup, Duration timeout) {
        var starting = new ArrayList<AppProcess>();
        // counted before the first start: a worker just started is alive already
        for (var missing = members - fleet.alive().size(); missing > 0; missing--) {
            starting.add(fleet.start(arguments));
        }
        starting.forEach(fleet::awaitReady);
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
        CommandProducer.send(target.bootstrapServers(), backlog, 0, false, Progress.silent());
        new LagFollower(watch, group, Duration.ofMillis(250), true, false)
                .follow(start, backlog.size(), System.nanoTime(), timeout, progress, (sample, consumed) -> {});
    }

    /**
     * The orders of a run, in the database: products of {@code keys}, each stocked for twice the orders it got, so
     * that the run measures deciding checkouts rather than running out; {@code tag} names them and seeds the spread.
     */
    public Backlog backlog(String tag, KeyDistribution keys, int commands) {
        return new BacklogWriter(target.database().dataSource())
                .create(
                        tag,
                        keys,
                        commands,
                        orders -> (int) Math.min(Integer.MAX_VALUE, 2L * orders),
                        tag.hashCode(),
                        progress);
    }

    /** The offsets a run starts from; take them before its first command is sent. */
    public Marks mark() {
        return new Marks(watch.endOffsets(Topics.CHECKOUT_COMMANDS), watch.endOffsets(Topics.CHECKOUT_RESULTS));
    }

    /** Samples the CPU and memory of the stack's processes, the workers alive now and the lab's own JVM. */
    public ResourceSampler sample() {
        return target.sample(SAMPLING, fleet.alive());
    }

    /**
     * Sends the backlog on a thread of its own, {@code rate} commands per second (0: as fast as one producer can),
     * keeping each record's timestamp for the end-to-end latency.
     */
    public CompletableFuture<CommandProducer.Sent> sendInBackground(Backlog backlog, int rate) {
        return CompletableFuture.supplyAsync(
                () -> CommandProducer.send(target.bootstrapServers(), backlog, rate, true, Progress.silent()),
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
     * The run's results as checkout.results holds them since {@code from}; see {@link ResultsScan#read}. A worker
     * publishes a poll's results after its transaction, so the group's lag can reach zero before the last of them is
     * on the topic: while results are missing and the topic still grows, it is read again, for at most
     * {@link #RESULTS_SETTLE}.
     */
    public ResultsScan.Summary results(Marks from, Backlog backlog, long[] sentAtMillis) {
        var deadline = System.nanoTime() + RESULTS_SETTLE.toNanos();
        var to = watch.endOffsets(Topics.CHECKOUT_RESULTS);
        while (true) {
            var results = ResultsScan.read(target.bootstrapServers(), from.results(), to, backlog, sentAtMillis);
            if (results.orders() >= backlog.size() || System.nanoTime() - deadline > 0) {
                return results;
            }
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            var later = watch.endOffsets(Topics.CHECKOUT_RESULTS);
            if (later.equals(to)) {
                return results;
            }
            to = later;
        }
    }

    public RunVerdict invariants(Backlog backlog) {
        return new InvariantChecker(target.database().dataSource()).verdict(backlog.initialStock());
    }

    @Override
    public void close() {
        try {
            fleet.close();
        } finally {
            watch.close();
        }
    }
}
