package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.CommandProducer;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.drain.Ceiling;
import dev.orderpipeline.lab.drain.CeilingRun;
import dev.orderpipeline.lab.drain.CeilingSettings;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Database;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The two rates of the capacity model that CPU per checkout does not give, measured on the run's own stack after its
 * loops: how fast one partition drains, and how many one-transaction checkouts one product's row admits.
 */
final class CapacityProbes {

    /** Enough for 10 s of the hot row at its usual 1,000-2,000 transactions/s; fewer when the drain probe is smaller. */
    private static final int HOT_ROW_COMMANDS = 20_000;

    private static final Duration HOT_ROW_DURATION = Duration.ofSeconds(10);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

    /**
     * The span from the first decision's transaction to the last one's (the worker stamps a poll's orders with its
     * transaction's start), and the orders of that last transaction, which the span does not cover.
     */
    private static final String DECISIONS = """
            SELECT count(*),
                   count(*) FILTER (WHERE updated_at = (SELECT max(updated_at) FROM orders WHERE product_id = ?)),
                   EXTRACT(EPOCH FROM max(updated_at) - min(updated_at))
            FROM orders
            WHERE product_id = ? AND status IN ('COMPLETED', 'REJECTED')
            """;

    private CapacityProbes() {}

    /**
     * One partition drained by the stack's worker: {@code commands} checkouts of one product sent to the command
     * topic as fast as the producer goes, decided as fast as the worker goes (the backlog stays ahead of it).
     *
     * @param perSecond decisions per second from the first poll's transaction to the last one's
     */
    record PartitionDrain(long commands, double seconds, double perSecond, RunInvariants.Summary invariants) {}

    static PartitionDrain drain(Database database, String bootstrapServers, int commands, Progress progress) {
        var tag = "drain-probe-" + UUID.randomUUID().toString().substring(0, 8);
        var backlog = new BacklogWriter(database.dataSource())
                .create(tag, new KeyDistribution.Hot(), commands, orders -> orders, tag.hashCode(), progress);
        var productId = backlog.products().getFirst();
        progress.phase("capacity probe: one partition drains " + commands + " commands", commands);
        CommandProducer.send(bootstrapServers, backlog, 0, false, progress);
        if (database.awaitFinal(
                        List.of(productId), 0, System.nanoTime() + DRAIN_TIMEOUT.toNanos(), Duration.ofMillis(200))
                > 0) {
            throw new IllegalStateException("the drain probe was not decided within " + DRAIN_TIMEOUT);
        }
        var invariants = RunInvariants.check(database.dataSource(), backlog.initialStock());
        try (var connection = database.connect();
                var statement = connection.prepareStatement(DECISIONS)) {
            statement.setObject(1, productId);
            statement.setObject(2, productId);
            try (var rows = statement.executeQuery()) {
                rows.next();
                var decided = rows.getLong(1);
                var lastTransaction = rows.getLong(2);
                var seconds = rows.getDouble(3);
                var perSecond = seconds > 0 ? (decided - lastTransaction) / seconds : 0;
                progress.note(String.format(
                        Locale.ROOT,
                        "Capacity probe: one partition decided %d commands in %.2f s: %.0f/s%s",
                        decided,
                        seconds,
                        perSecond,
                        invariants.violatedNote()));
                return new PartitionDrain(decided, round(seconds), round(perSecond), invariants);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read the drain probe's decisions: " + ex.getMessage(), ex);
        }
    }

    /**
     * The hot row's ceiling: the ceiling's writer with k = 1 on each count of connections at once, all on one product
     * (a fresh one per count), committing as the server does by default; no API, no HTTP, so PostgreSQL has the cores
     * to itself. One writer waits on no lock but overlaps nothing; many queue on the row, and past a few their
     * hand-offs cost more than the overlap gains: the row admits the best of them.
     */
    static List<CeilingRun> hotRow(Database database, List<Integer> writers, int drainCommands, Progress progress) {
        return writers.stream()
                .map(count -> {
                    var settings = new CeilingSettings(
                            List.of(1),
                            Math.min(HOT_ROW_COMMANDS, drainCommands),
                            HOT_ROW_DURATION,
                            database.synchronousCommit(),
                            count);
                    progress.note("Capacity probe: the hot row, " + count + " writer(s), one checkout per transaction");
                    return new Ceiling(database.dataSource(), settings, progress)
                            .run()
                            .getFirst();
                })
                .toList();
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
