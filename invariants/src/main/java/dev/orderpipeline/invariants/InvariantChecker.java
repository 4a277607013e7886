package dev.orderpipeline.invariants;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Reads the invariants of products from the database: the only SQL that judges a run, for one product or for the
 * ten thousand of a lab run alike (three set-based reads whatever their number). Plain JDBC, so every module can use
 * it.
 *
 * <p>The three reads run in one REPEATABLE READ, read-only transaction: they see one snapshot, so a checkout that
 * commits between them (writers may still be running when a client asks) cannot make the stock and the completed
 * orders disagree and report a drift that is not there.
 */
public final class InvariantChecker {

    private static final String STOCK = """
            SELECT id, stock FROM product WHERE id = ANY(?)
            """;

    private static final String ORDERS_BY_STATUS = """
            SELECT product_id, status, reject_reason, count(*) AS orders, coalesce(sum(quantity), 0) AS quantity
            FROM orders
            WHERE product_id = ANY(?)
            GROUP BY product_id, status, reject_reason
            """;

    private static final String PAYMENTS = """
            SELECT product_id,
                   sum(n) AS payments,
                   count(*) FILTER (WHERE n > 1) AS orders_paid_more_than_once,
                   coalesce(sum(n) FILTER (WHERE status <> 'COMPLETED'), 0) AS payments_without_completion
            FROM (SELECT o.product_id, o.status, count(*) AS n
                  FROM payment pay
                  JOIN orders o ON o.id = pay.order_id
                  WHERE o.product_id = ANY(?)
                  GROUP BY o.product_id, pay.order_id, o.status) per_order
            GROUP BY product_id
            """;

    private static final String ORDERS_NOT_FINAL = """
            SELECT count(*) FROM orders
            WHERE product_id = ANY(?) AND status NOT IN ('COMPLETED', 'REJECTED')
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
        return check(Map.of(productId, initialStock)).getFirst();
    }

    /**
     * Checks every product of {@code initialStock} against the stock it started with.
     *
     * @return one report per product, in the map's order
     * @throws IllegalArgumentException when one of them does not exist
     */
    public List<InvariantReport> check(Map<UUID, Integer> initialStock) {
        try (var connection = dataSource.getConnection()) {
            return inOneSnapshot(connection, () -> check(connection, initialStock));
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read the invariants of " + describe(initialStock.keySet()), ex);
        }
    }

    /** Orders of these products not decided yet (neither COMPLETED nor REJECTED). */
    public long ordersNotFinal(Collection<UUID> productIds) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(ORDERS_NOT_FINAL)) {
            statement.setArray(1, ids(connection, productIds));
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not count the open orders of " + describe(productIds), ex);
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

    private static List<InvariantReport> check(Connection connection, Map<UUID, Integer> initialStock)
            throws SQLException {
        var books = new LinkedHashMap<UUID, Books>();
        initialStock.forEach((product, stock) -> books.put(product, new Books(stock)));
        var ids = ids(connection, initialStock.keySet());
        readStock(connection, ids, books);
        readOrders(connection, ids, books);
        readPayments(connection, ids, books);
        var reports = new ArrayList<InvariantReport>(books.size());
        books.forEach((product, book) -> reports.add(book.report(product)));
        return reports;
    }

    private static void readStock(Connection connection, Array ids, Map<UUID, Books> books) throws SQLException {
        try (var statement = connection.prepareStatement(STOCK)) {
            statement.setArray(1, ids);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    book(books, rows.getObject("id", UUID.class)).stockLeft = rows.getInt("stock");
                }
            }
        }
        var missing = books.entrySet().stream()
                .filter(entry -> entry.getValue().stockLeft == null)
                .map(Map.Entry::getKey)
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("no " + describe(missing));
        }
    }

    private static void readOrders(Connection connection, Array ids, Map<UUID, Books> books) throws SQLException {
        try (var statement = connection.prepareStatement(ORDERS_BY_STATUS)) {
            statement.setArray(1, ids);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    book(books, rows.getObject("product_id", UUID.class))
                            .countOrders(
                                    rows.getString("status"),
                                    rows.getString("reject_reason"),
                                    rows.getLong("orders"),
                                    rows.getLong("quantity"));
                }
            }
        }
    }

    private static void readPayments(Connection connection, Array ids, Map<UUID, Books> books) throws SQLException {
        try (var statement = connection.prepareStatement(PAYMENTS)) {
            statement.setArray(1, ids);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    var book = book(books, rows.getObject("product_id", UUID.class));
                    book.payments = rows.getLong("payments");
                    book.ordersPaidMoreThanOnce = rows.getLong("orders_paid_more_than_once");
                    book.paymentsWithoutCompletion = rows.getLong("payments_without_completion");
                }
            }
        }
    }

    private static Books book(Map<UUID, Books> books, UUID productId) {
        return Objects.requireNonNull(books.get(productId), "a product asked for");
    }

    private static Array ids(Connection connection, Collection<UUID> productIds) throws SQLException {
        return connection.createArrayOf("uuid", productIds.toArray(UUID[]::new));
    }

    private static String describe(Collection<UUID> productIds) {
        return productIds.size() == 1
                ? "product " + productIds.iterator().next()
                : productIds.size() + " products ("
                        + productIds.stream().limit(3).toList() + "...)";
    }

    /** One product's counts as the reads come in; every order is COMPLETED, REJECTED or not final. */
    private static final class Books {

        private final int initialStock;
        private @Nullable Integer stockLeft;
        private long completedOrders;
        private long completedQuantity;
        private long rejectedOrders;
        private final Map<String, Long> rejections = new TreeMap<>();
        private long notFinal;
        private long payments;
        private long ordersPaidMoreThanOnce;
        private long paymentsWithoutCompletion;

        Books(int initialStock) {
            this.initialStock = initialStock;
        }

        void countOrders(String status, @Nullable String rejectReason, long orders, long quantity) {
            switch (status) {
                case "COMPLETED" -> {
                    completedOrders += orders;
                    completedQuantity += quantity;
                }
                case "REJECTED" -> {
                    rejectedOrders += orders;
                    rejections.merge(Objects.requireNonNullElse(rejectReason, "UNKNOWN"), orders, Long::sum);
                }
                default -> notFinal += orders;
            }
        }

        InvariantReport report(UUID productId) {
            return new InvariantReport(
                    productId,
                    initialStock,
                    Objects.requireNonNull(stockLeft, "stock read"),
                    completedOrders,
                    completedQuantity,
                    rejectedOrders,
                    rejections,
                    notFinal,
                    payments,
                    ordersPaidMoreThanOnce,
                    paymentsWithoutCompletion);
        }
    }
}
