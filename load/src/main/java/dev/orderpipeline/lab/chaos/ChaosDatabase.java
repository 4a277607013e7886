package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.invariants.IdempotencyRows;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.invariants.RepeatedEffects;
import dev.orderpipeline.lab.chaos.ChaosRun.DecoyFigures;
import dev.orderpipeline.lab.pipeline.Database;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** What the chaos experiment reads from the database; the verdicts on books and carts through the invariants module. */
final class ChaosDatabase {

    /** When each decided order of the products was decided: its idempotency row with an outcome (a cart's, too). */
    private static final String DECISIONS = """
            SELECT pc.order_id, pc.processed_at
            FROM processed_command pc
            JOIN orders o ON o.id = pc.order_id
            WHERE pc.outcome IS NOT NULL
              AND (o.product_id = ANY(?)
                   OR (o.product_id IS NULL
                       AND EXISTS (SELECT 1 FROM order_line l WHERE l.order_id = o.id AND l.product_id = ANY(?))))
            """;

    private static final String DECISION_TIMES = """
            SELECT o.product_id, pc.processed_at
            FROM processed_command pc
            JOIN orders o ON o.id = pc.order_id
            WHERE o.product_id = ANY(?) AND pc.outcome IS NOT NULL AND pc.processed_at > ? AND pc.processed_at <= ?
            """;

    private static final String SOLD_OUT = "SELECT id FROM product WHERE id = ANY(?) AND stock = 0";

    /** Sessions idle in a transaction for over a second: a stopped process's (docs/operate.md, "Database sessions"). */
    private static final String STALE_TRANSACTIONS = """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database()
              AND state IN ('idle in transaction', 'idle in transaction (aborted)')
              AND state_change < now() - interval '1 second'
            """;

    private static final String DECOY = """
            SELECT (SELECT stock FROM product WHERE id = ?) AS stock,
                   (SELECT count(*) FROM orders WHERE product_id = ? AND status <> 'CREATED') AS not_created,
                   (SELECT count(*) FROM payment p JOIN orders o ON o.id = p.order_id WHERE o.product_id = ?)
                       AS payments,
                   (SELECT count(*) FROM processed_command pc JOIN orders o ON o.id = pc.order_id
                     WHERE o.product_id = ?) AS processed
            """;

    private final Database database;

    private final InvariantChecker invariants;

    ChaosDatabase(Database database) {
        this.database = database;
        this.invariants = new InvariantChecker(database.dataSource());
    }

    Connection connect() throws SQLException {
        return database.connect();
    }

    Map<UUID, Long> decisions(List<UUID> products) {
        return query(
                DECISIONS,
                "could not read the decisions",
                rows -> {
                    var times = new HashMap<UUID, Long>();
                    while (rows.next()) {
                        times.put(
                                rows.getObject(1, UUID.class),
                                rows.getTimestamp(2).getTime());
                    }
                    return times;
                },
                products,
                products);
    }

    Map<UUID, List<Long>> decisionTimes(Collection<UUID> products, long fromEpochMillis, long toEpochMillis) {
        return query(
                DECISION_TIMES,
                "could not read the decisions' times",
                rows -> {
                    var times = new HashMap<UUID, List<Long>>();
                    while (rows.next()) {
                        times.computeIfAbsent(rows.getObject(1, UUID.class), product -> new ArrayList<>())
                                .add(rows.getTimestamp(2).getTime());
                    }
                    return times;
                },
                products,
                new Timestamp(fromEpochMillis),
                new Timestamp(toEpochMillis));
    }

    /** Those of {@code products} with no unit left. */
    Set<UUID> soldOut(Collection<UUID> products) {
        return query(
                SOLD_OUT,
                "could not read the products' stock",
                rows -> {
                    var soldOut = new HashSet<UUID>();
                    while (rows.next()) {
                        soldOut.add(rows.getObject(1, UUID.class));
                    }
                    return soldOut;
                },
                products);
    }

    long staleTransactions() {
        return one(STALE_TRANSACTIONS, "could not read pg_stat_activity", rows -> rows.getLong(1));
    }

    Set<UUID> decidedAmong(Collection<UUID> orders) {
        return orders.isEmpty() ? Set.of() : invariants.decidedAmong(orders);
    }

    List<InvariantReport> books(Map<UUID, Integer> initialStock) {
        return invariants.check(initialStock);
    }

    /** The products' single-product orders beside the idempotency table, summed over the products. */
    IdempotencyRows idempotency(List<UUID> products) {
        var rows = invariants.idempotency(products).values();
        return new IdempotencyRows(
                rows.stream().mapToLong(IdempotencyRows::decidedOrders).sum(),
                rows.stream().mapToLong(IdempotencyRows::rows).sum(),
                rows.stream().mapToLong(IdempotencyRows::disagreeing).sum());
    }

    RepeatedEffects repeatedEffects(Collection<UUID> orders) {
        return invariants.repeatedEffects(orders);
    }

    @Nullable
    CartVerdict carts(Collection<UUID> carts) {
        return carts.isEmpty() ? null : invariants.carts(carts);
    }

    DecoyFigures decoy(UUID product, int initialStock) {
        return one(
                DECOY,
                "could not read the decoy product " + product,
                rows -> new DecoyFigures(
                        initialStock,
                        rows.getInt("stock"),
                        rows.getLong("not_created"),
                        rows.getLong("payments"),
                        rows.getLong("processed")),
                Collections.nCopies(4, product).toArray());
    }

    @FunctionalInterface
    private interface Rows<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /** Runs {@code sql} on a connection of its own; a collection of ids is bound as a {@code uuid[]}. */
    private <T> T query(String sql, String failure, Rows<T> read, Object... parameters) {
        try (var connection = database.connect();
                var statement = connection.prepareStatement(sql)) {
            for (var index = 0; index < parameters.length; index++) {
                var value = parameters[index] instanceof Collection<?> ids
                        ? connection.createArrayOf("uuid", ids.toArray(UUID[]::new))
                        : parameters[index];
                statement.setObject(index + 1, value);
            }
            try (var rows = statement.executeQuery()) {
                return read.read(rows);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(failure, ex);
        }
    }

    private <T> T one(String sql, String failure, Rows<T> read, Object... parameters) {
        return query(
                sql,
                failure,
                rows -> {
                    rows.next();
                    return read.read(rows);
                },
                parameters);
    }
}
