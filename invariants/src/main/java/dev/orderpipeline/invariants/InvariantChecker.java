package dev.orderpipeline.invariants;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Reads the invariants of one product from the database. Plain JDBC, so every module can use it.
 *
 * <p>The three reads run in one REPEATABLE READ, read-only transaction: they see one snapshot, so a checkout that
 * commits between them (writers may still be running when a client asks) cannot make the stock and the completed
 * orders disagree and report a drift that is not there.
 */
public final class InvariantChecker {

    private static final String STOCK = """
            SELECT stock FROM product WHERE id = ?
            """;

    private static final String ORDERS_BY_STATUS = """
            SELECT status, reject_reason, count(*) AS orders, coalesce(sum(quantity), 0) AS quantity
            FROM orders
            WHERE product_id = ?
            GROUP BY status, reject_reason
            """;

    private static final String PAYMENTS = """
            SELECT count(*) AS payments,
                   count(DISTINCT pay.order_id) FILTER (WHERE per_order.n > 1) AS orders_paid_more_than_once,
                   count(*) FILTER (WHERE o.status <> 'COMPLETED') AS payments_without_completion
            FROM payment pay
            JOIN orders o ON o.id = pay.order_id
            JOIN (SELECT order_id, count(*) AS n FROM payment GROUP BY order_id) per_order
              ON per_order.order_id = pay.order_id
            WHERE o.product_id = ?
            """;

    private final DataSource dataSource;

    public InvariantChecker(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Checks one product against the stock it started with.
     *
     * @throws IllegalArgumentException when there is no such product
     */
    public InvariantReport check(UUID productId, int initialStock) {
        try (var connection = dataSource.getConnection()) {
            return inOneSnapshot(connection, () -> check(connection, productId, initialStock));
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read the invariants of product " + productId, ex);
        }
    }

    private static <T> T inOneSnapshot(Connection connection, SqlWork<T> work) throws SQLException {
        var autoCommit = connection.getAutoCommit();
        var isolation = connection.getTransactionIsolation();
        var readOnly = connection.isReadOnly();
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        connection.setReadOnly(true);
        try {
            return work.run();
        } finally {
            // nothing was written: ending the transaction either way only releases the snapshot
            connection.rollback();
            connection.setReadOnly(readOnly);
            connection.setTransactionIsolation(isolation);
            connection.setAutoCommit(autoCommit);
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    private static InvariantReport check(Connection connection, UUID productId, int initialStock) throws SQLException {
        int stockLeft;
        try (var statement = connection.prepareStatement(STOCK)) {
            statement.setObject(1, productId);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalArgumentException("no product " + productId);
                }
                stockLeft = rows.getInt("stock");
            }
        }
        long completedOrders = 0;
        long completedQuantity = 0;
        long rejectedOrders = 0;
        long notFinal = 0;
        var rejections = new TreeMap<String, Long>();
        try (var statement = connection.prepareStatement(ORDERS_BY_STATUS)) {
            statement.setObject(1, productId);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    long orders = rows.getLong("orders");
                    switch (rows.getString("status")) {
                        case "COMPLETED" -> {
                            completedOrders += orders;
                            completedQuantity += rows.getLong("quantity");
                        }
                        case "REJECTED" -> {
                            rejectedOrders += orders;
                            rejections.merge(
                                    Objects.requireNonNullElse(rows.getString("reject_reason"), "UNKNOWN"),
                                    orders,
                                    Long::sum);
                        }
                        default -> notFinal += orders;
                    }
                }
            }
        }
        try (var statement = connection.prepareStatement(PAYMENTS)) {
            statement.setObject(1, productId);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return new InvariantReport(
                        productId,
                        initialStock,
                        stockLeft,
                        completedOrders,
                        completedQuantity,
                        rejectedOrders,
                        rejections,
                        notFinal,
                        rows.getLong("payments"),
                        rows.getLong("orders_paid_more_than_once"),
                        rows.getLong("payments_without_completion"));
            }
        }
    }
}
