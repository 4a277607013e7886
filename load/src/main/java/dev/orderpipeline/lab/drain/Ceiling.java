package dev.orderpipeline.lab.drain;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.TargetOptions;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.schema.Migrations;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;

/**
 * The ceiling: what the worker does per command, applied straight through JDBC by one writer, in batches of k
 * commands per transaction, on one hot product, every commit durable as the apps' are. Per batch one
 * transaction of four set-based statements over arrays:
 *
 * <ol>
 *   <li>claim the commands in the idempotency table ({@code INSERT ... ON CONFLICT DO NOTHING RETURNING}): only the
 *       fresh ones go on;
 *   <li>take their total from the product's stock with one conditional UPDATE, the guard in its WHERE;
 *   <li>move their orders from CREATED to COMPLETED;
 *   <li>capture one payment each.
 * </ol>
 *
 * <p>The product is stocked for ten times its orders, so every batch completes: a batch its stock does not cover fails
 * the run. The orders are inserted before by {@link BacklogWriter}, set-based, and not timed.
 */
public record Ceiling(DataSource dataSource, CeilingSettings settings, Progress progress) {

    private static final String CLAIM = """
            INSERT INTO processed_command (command_id, order_id, outcome)
            SELECT v.command_id, v.order_id, 'COMPLETED'
            FROM unnest(?::uuid[], ?::uuid[]) AS v(command_id, order_id)
            ON CONFLICT DO NOTHING
            RETURNING order_id
            """;

    private static final String TAKE_STOCK = """
            UPDATE product SET stock = stock - ?, updated_at = now()
            WHERE id = ? AND stock >= ?
            """;

    private static final String DECIDE_ORDERS = """
            UPDATE orders SET status = 'COMPLETED', updated_at = now()
            WHERE id = ANY(?::uuid[]) AND status = 'CREATED'
            """;

    private static final String CAPTURE_PAYMENTS = """
            INSERT INTO payment (id, order_id, amount, status)
            SELECT v.id, o.id, p.price * o.quantity, 'CAPTURED'
            FROM unnest(?::uuid[], ?::uuid[]) AS v(id, order_id)
            JOIN orders o ON o.id = v.order_id
            JOIN product p ON p.id = o.product_id
            """;

    private static final String REMOVE_UNREACHED = """
            DELETE FROM orders WHERE product_id = ? AND status = 'CREATED'
            """;

    /** Creates the schema where there is none (Flyway, the same migrations the apps run); a no-op on theirs. */
    public static void migrate(DataSource dataSource) {
        Migrations.migrate(Flyway.configure().dataSource(dataSource).load());
    }

    /** Every batch size in turn, each on a fresh hot product. */
    public List<CeilingRun> run() {
        var runs = new ArrayList<CeilingRun>();
        for (var batchSize : settings.batchSizes()) {
            var run = runOne(batchSize);
            progress.note(String.format(
                    Locale.ROOT,
                    "ceiling k=%d: %.0f commands/s, batch p50 %.2f ms, p99 %.2f ms%s",
                    batchSize,
                    run.perSecond(),
                    run.batchLatency().p50Ms(),
                    run.batchLatency().p99Ms(),
                    Cells.violatedNote(run.invariants())));
            runs.add(run);
        }
        return runs;
    }

    CeilingRun runOne(int batchSize) {
        var tag = "ceiling-k" + batchSize + "-" + UUID.randomUUID().toString().substring(0, 8);
        var backlog = new BacklogWriter(dataSource)
                .create(
                        tag,
                        KeyDistribution.HOT,
                        settings.commands(),
                        orders -> (int) Math.min(Integer.MAX_VALUE, 10L * orders),
                        progress);
        var productId = backlog.products().getFirst();
        var orders =
                IntStream.range(0, backlog.size()).mapToObj(backlog::orderId).toList();
        var writers = settings.writers();
        progress.phase("ceiling k=" + batchSize + (writers == 1 ? "" : ", " + writers + " writers"), orders.size());
        var latency = new LatencyRecorder();
        var timed = applyAll(productId, orders, batchSize, latency);
        var after = ServerCounters.read(dataSource);
        var server = timed.before() != null && after != null ? after.since(timed.before()) : null;
        removeUnreached(productId);
        var invariants = new InvariantChecker(dataSource).verdict(backlog.initialStock());
        var seconds = timed.commands() == 0 ? 0 : (timed.endNanos() - timed.startNanos()) / 1e9;
        var perSecond = seconds > 0 ? timed.commands() / seconds : 0;
        return new CeilingRun(
                batchSize,
                settings.writers(),
                productId,
                timed.warmupCommands(),
                timed.commands(),
                latency.count(),
                Math.round(seconds * 1000) / 1000.0,
                Math.round(perSecond * 10) / 10.0,
                latency.summary(),
                server,
                invariants);
    }

    /**
     * The timed part of a run, from the first writer's start of timing to the last one's end; {@code before} is what
     * the server had counted when a writer began timing (the writers begin within a few transactions of each other).
     */
    private record Timed(
            long warmupCommands,
            long commands,
            long startNanos,
            long endNanos,
            @Nullable ServerCounters before) {

        Timed plus(Timed other) {
            return new Timed(
                    warmupCommands + other.warmupCommands,
                    commands + other.commands,
                    Math.min(startNanos, other.startNanos),
                    Math.max(endNanos, other.endNanos),
                    before != null ? before : other.before);
        }
    }

    /** The orders dealt out to the writers in turn, each writer on a connection of its own, all started at once. */
    private Timed applyAll(UUID productId, List<UUID> orders, int batchSize, LatencyRecorder latency) {
        var writers = settings.writers();
        var slices = IntStream.range(0, writers)
                .mapToObj(writer -> IntStream.iterate(writer, i -> i < orders.size(), i -> i + writers)
                        .mapToObj(orders::get)
                        .toList())
                .filter(slice -> !slice.isEmpty())
                .toList();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            var applied = slices.stream()
                    .map(slice -> executor.submit(() -> {
                        try (var connection = dataSource.getConnection()) {
                            return apply(connection, productId, slice, batchSize, latency);
                        }
                    }))
                    .toList();
            return applied.stream().map(Ceiling::result).reduce(Timed::plus).orElseThrow();
        }
    }

    private static Timed result(Future<Timed> applied) {
        try {
            return applied.get();
        } catch (ExecutionException ex) {
            Throwable cause = ex.getCause() == null ? ex : ex.getCause();
            throw new IllegalStateException("a ceiling writer failed: " + cause.getMessage(), cause);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the ceiling's writers ran", ex);
        }
    }

    /** Applies the orders in batches: a few untimed (JIT, statement preparation, caches), then timed ones. */
    private Timed apply(
            Connection connection, UUID productId, List<UUID> orders, int batchSize, LatencyRecorder latency)
            throws SQLException {
        var warmupBatches = Math.clamp(orders.size() / batchSize / 20, 1, 200);
        long timedCommands = 0;
        long warmupCommands = 0;
        long timedStart = 0;
        long timedEnd = 0;
        @Nullable ServerCounters before = null;
        connection.setAutoCommit(false);
        try (var statement = connection.createStatement()) {
            statement.execute("SET synchronous_commit = " + TargetOptions.SYNCHRONOUS_COMMIT);
        }
        connection.commit();
        // the statements close with the writer's connection
        var statements = new Statements(connection);
        for (int from = 0, batch = 0; from < orders.size(); from += batchSize, batch++) {
            if (batch == warmupBatches) {
                before = ServerCounters.read(dataSource);
                timedStart = System.nanoTime();
            }
            var to = Math.min(orders.size(), from + batchSize);
            var started = System.nanoTime();
            statements.apply(productId, orders.subList(from, to));
            var ended = System.nanoTime();
            progress.advance(to - from);
            if (batch < warmupBatches) {
                warmupCommands += to - from;
                continue;
            }
            latency.recordNanos(ended - started);
            timedCommands += to - from;
            timedEnd = ended;
            if (timedEnd - timedStart > settings.maxDuration().toNanos()) {
                break;
            }
        }
        // a writer whose orders all went to the warm-up has no timed part, and no say in its window
        return timedCommands == 0
                ? new Timed(warmupCommands, 0, Long.MAX_VALUE, Long.MIN_VALUE, null)
                : new Timed(warmupCommands, timedCommands, timedStart, timedEnd, before);
    }

    /** Orders the run did not reach within its duration never had a command: they go, so every order left is final. */
    private void removeUnreached(UUID productId) {
        try (var connection = dataSource.getConnection();
                var delete = connection.prepareStatement(REMOVE_UNREACHED)) {
            delete.setObject(1, productId);
            delete.executeUpdate();
        } catch (SQLException ex) {
            throw new IllegalStateException("could not remove the orders the run did not reach", ex);
        }
    }

    /** The batch's statements, prepared once per run (the driver turns them into server-side statements). */
    private static final class Statements {

        private final Connection connection;
        private final PreparedStatement claim;
        private final PreparedStatement takeStock;
        private final PreparedStatement decideOrders;
        private final PreparedStatement capturePayments;

        Statements(Connection connection) throws SQLException {
            this.connection = connection;
            claim = connection.prepareStatement(CLAIM);
            takeStock = connection.prepareStatement(TAKE_STOCK);
            decideOrders = connection.prepareStatement(DECIDE_ORDERS);
            capturePayments = connection.prepareStatement(CAPTURE_PAYMENTS);
        }

        /** One transaction: the batch claimed, its stock taken, its orders completed and paid. */
        void apply(UUID productId, List<UUID> orderIds) throws SQLException {
            var claimed = claim(
                    orderIds.stream().map(CheckoutCommand::idFor).toArray(UUID[]::new), orderIds.toArray(UUID[]::new));
            if (claimed.length == 0) {
                connection.commit();
                return;
            }
            // every order of a run is for one unit
            var total = claimed.length;
            takeStock.setInt(1, total);
            takeStock.setObject(2, productId);
            takeStock.setInt(3, total);
            expect("product", 1, takeStock.executeUpdate());
            var claimedArray = connection.createArrayOf("uuid", claimed);
            decideOrders.setArray(1, claimedArray);
            expect("orders", total, decideOrders.executeUpdate());
            var paymentIds = new UUID[total];
            Arrays.setAll(paymentIds, i -> timeOrderedId());
            capturePayments.setArray(1, connection.createArrayOf("uuid", paymentIds));
            capturePayments.setArray(2, claimedArray);
            expect("payment", total, capturePayments.executeUpdate());
            connection.commit();
        }

        private UUID[] claim(UUID[] commandIds, UUID[] orders) throws SQLException {
            claim.setArray(1, connection.createArrayOf("uuid", commandIds));
            claim.setArray(2, connection.createArrayOf("uuid", orders));
            var claimed = new ArrayList<UUID>(orders.length);
            try (var rows = claim.executeQuery()) {
                while (rows.next()) {
                    claimed.add(rows.getObject(1, UUID.class));
                }
            }
            return claimed.toArray(UUID[]::new);
        }

        /**
         * The rows were claimed by this transaction and the product holds ten times the run's orders: any other count
         * is a bug, and nothing of it may stay.
         */
        private void expect(String table, int expected, int actual) throws SQLException {
            if (expected != actual) {
                connection.rollback();
                throw new IllegalStateException(
                        "expected to write " + expected + " " + table + " rows but wrote " + actual);
            }
        }
    }

    /**
     * A UUID whose first 48 bits are the time in milliseconds (the layout of version 7), so a batch's payments go to
     * the end of the primary key's index as the worker's do, instead of all over it.
     */
    static UUID timeOrderedId() {
        var random = ThreadLocalRandom.current();
        var high = (System.currentTimeMillis() << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        var low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }
}
