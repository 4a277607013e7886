package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Runs the throughput experiment: per round, key distribution and strategy a warm-up and a measured run, each on
 * fresh products with their orders prepared before the timed part (set-based in the database when the lab has it,
 * else through the API, one hot product only), then the {@link ClosedLoop}, then a wait until every answered order is
 * final while the CPU is still sampled. Then, with the database and the broker at hand, the {@link CapacityProbes}
 * and the {@link CapacityModel}.
 */
public final class ThroughputExperiment {

    /** The kind under which the sampler watches the lab's own JVM. */
    static final String LAB = "lab";

    /** The answers after which an order becomes final without the lab doing anything more. */
    private static final List<String> ANSWERED = List.of("200", "202", "409");

    private static final Duration FINAL_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(100);

    /** The orders a run did not get to: removed, so that the invariants judge only what was sent. */
    private static final String DELETE_UNSENT = """
            DELETE FROM orders WHERE id = ANY(?::uuid[]) AND status = 'CREATED'
            """;

    private final StackTarget target;
    private final ThroughputSettings settings;
    private final Progress progress;

    public ThroughputExperiment(StackTarget target, ThroughputSettings settings, Progress progress) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
    }

    /** The measured runs, the strategies the API does not offer, and the model when the probes could run. */
    public record Outcome(
            List<ThroughputRun> runs,
            List<String> skipped,
            @Nullable CapacityModel capacity) {}

    /** Rounds outermost: a slow drift of the machine spreads over all strategies instead of falling on one. */
    public Outcome run() {
        var skipped = new ArrayList<String>();
        var available = Strategies.offered(target.apis().getFirst(), settings.strategies(), progress, skipped::add);
        var runs = new ArrayList<ThroughputRun>();
        var total = settings.repetitions() * settings.keys().size() * available.size();
        warmUpStack(available);
        for (var repetition = 1; repetition <= settings.repetitions(); repetition++) {
            for (var keys : settings.distributions()) {
                for (var strategy : available) {
                    progress.item("run", runs.size() + 1, total, label(strategy, keys, repetition));
                    runs.add(measure(strategy, keys, repetition));
                }
            }
        }
        if (settings.drainCommands() == 0) {
            return new Outcome(runs, skipped, null);
        }
        var database = target.database();
        var drain = CapacityProbes.drain(database, target.bootstrapServers(), settings.drainCommands(), progress);
        var hotRow = CapacityProbes.hotRow(database, settings.hotRowWriters(), settings.drainCommands(), progress);
        var machineCores = Runtime.getRuntime().availableProcessors();
        return new Outcome(runs, skipped, CapacityModel.of(runs, drain, hotRow, machineCores));
    }

    /** Every strategy on every key distribution in turn, for an equal share of the stack's warm-up, unreported. */
    private void warmUpStack(List<String> strategies) {
        if (!settings.stackWarmup().isPositive()) {
            return;
        }
        var share = settings.stackWarmup()
                .dividedBy((long) strategies.size() * settings.keys().size());
        for (var keys : settings.distributions()) {
            for (var strategy : strategies) {
                var warm = runOne(strategy, keys, 0, label(strategy, keys, 0) + " stack warm-up", share);
                progress.note(String.format(
                        Locale.ROOT, "%s: %.0f checkouts/s (not reported)", warm.label(), warm.checkoutsPerSecond()));
            }
        }
    }

    private String label(String strategy, KeyDistribution keys, int repetition) {
        var label = settings.keys().size() == 1 ? strategy : strategy + " " + keys.label();
        return settings.repetitions() == 1 || repetition == 0 ? label : label + " #" + repetition;
    }

    /** The warm-up, unreported, then the measured run. */
    private ThroughputRun measure(String strategy, KeyDistribution keys, int repetition) {
        var label = label(strategy, keys, repetition);
        if (settings.warmup().isPositive()) {
            var warm = runOne(strategy, keys, 0, label + " warm-up", settings.warmup());
            progress.note(String.format(
                    Locale.ROOT, "%s: %.0f checkouts/s (not reported)", warm.label(), warm.checkoutsPerSecond()));
        }
        var run = runOne(strategy, keys, repetition, label, settings.duration());
        progress.note(String.format(
                Locale.ROOT,
                "%s: %.0f checkouts/s, %.0f decided/s, p99 %.1f ms, CPU %s ms per checkout%s",
                label,
                run.checkoutsPerSecond(),
                run.decidedPerSecond(),
                run.latency().p99Ms(),
                run.cost() == null
                        ? "n/a"
                        : String.format(Locale.ROOT, "%.2f", run.cost().totalCpuMs()),
                run.ranOut() ? ", RAN OUT of orders" : ""));
        return run;
    }

    /** One run of the loop, on orders for {@code maxRate} checkouts per second of it. */
    private ThroughputRun runOne(
            String strategy, KeyDistribution keys, int repetition, String label, Duration duration) {
        var count = (int) Math.ceil(settings.maxRate() * duration.toNanos() / 1e9) + settings.connections();
        var prepared = prepare(keys, count);

        progress.phase(label + " load", 0);
        var watched = new ArrayList<>(target.processes());
        watched.add(new ResourceSampler.Watched(LAB, ProcessHandle.current().pid()));
        var sampledFrom = System.nanoTime();
        var sampler = ResourceSampler.start(watched, target.database(), ResourceSampler.DEFAULT_INTERVAL);
        ClosedLoop.Result loop;
        ThroughputRun.Tail tail;
        try {
            loop = ClosedLoop.run(target.apis(), strategy, prepared, settings.connections(), duration, progress);
            progress.phase(label + " waiting for final", 0);
            tail = awaitFinal(prepared, loop);
        } catch (RuntimeException ex) {
            sampler.close();
            throw ex;
        }
        var resources = sampler.stop();
        var sampledSeconds = (System.nanoTime() - sampledFrom) / 1e9;
        var invariants = invariants(prepared, loop.sent());
        return ThroughputRun.of(
                label, strategy, repetition, keys.label(), prepared, loop, tail, resources, sampledSeconds, invariants);
    }

    private ClosedLoop.Prepared prepare(KeyDistribution keys, int count) {
        var tag = "throughput-" + UUID.randomUUID().toString().substring(0, 8);
        var backlog = new BacklogWriter(target.database().dataSource())
                .create(tag, keys, count, orders -> orders, tag.hashCode(), progress);
        return new ClosedLoop.Prepared(
                backlog.initialStock(),
                IntStream.range(0, count).mapToObj(backlog::orderId).toList(),
                IntStream.range(0, count).mapToObj(backlog::userId).toList());
    }

    /**
     * Polls until every answered order is final (a checkout that got no answer the strategy defines leaves its order
     * CREATED for good), or a while has passed. The orders never sent are still CREATED and do not count.
     */
    private ThroughputRun.Tail awaitFinal(ClosedLoop.Prepared prepared, ClosedLoop.Result loop) {
        var unsent = prepared.size() - loop.sent();
        var unanswered = loop.statuses().entrySet().stream()
                .filter(status -> !ANSWERED.contains(status.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
        var stoppedAt = System.nanoTime();
        var products = prepared.initialStock().keySet();
        var atStop = target.database().ordersNotFinal(products) - unsent;
        var open =
                target.database().awaitFinal(products, unanswered + unsent, stoppedAt + FINAL_TIMEOUT.toNanos(), POLL)
                        - unsent;
        var seconds = atStop == 0 ? 0 : (System.nanoTime() - stoppedAt) / 1e9;
        return new ThroughputRun.Tail(atStop, seconds, loop.sent() - open);
    }

    /** The orders not sent removed, the database's verdict on the product. */
    private RunInvariants.Summary invariants(ClosedLoop.Prepared prepared, long sent) {
        var database = target.database();
        var unsent = prepared.orders().subList((int) sent, prepared.size());
        try (var connection = database.connect();
                var statement = connection.prepareStatement(DELETE_UNSENT)) {
            statement.setArray(1, connection.createArrayOf("uuid", unsent.toArray()));
            statement.executeUpdate();
        } catch (SQLException ex) {
            throw new IllegalStateException("could not remove the orders not sent: " + ex.getMessage(), ex);
        }
        return RunInvariants.check(database.dataSource(), prepared.initialStock());
    }
}
