package dev.orderpipeline.invariants;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Reads the invariants of products from the database: the only SQL that judges a run, for one product or for the
 * ten thousand of a lab run alike (five set-based reads whatever their number). Plain JDBC, so every module can use
 * it.
 *
 * <p>The reads of {@link #check} run in one REPEATABLE READ, read-only transaction: they see one snapshot, so a
 * checkout that commits between them (writers may still be running when a client asks) cannot make the stock, the
 * completed orders and the carts' lines disagree and report a drift that is not there. The other reads are one
 * statement each: the open orders and carts, which orders are decided, the idempotency rows beside the decided
 * orders, what was done more than once to some orders, and some carts judged by the cart rules.
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

    // The products' units on cart lines: sold, and held (taken from stock for a cart not decided or not released yet)
    private static final String CART_LINES = """
            SELECT product_id,
                   coalesce(sum(quantity) FILTER (WHERE status = 'SOLD'), 0) AS sold,
                   coalesce(sum(quantity) FILTER (WHERE status IN ('RESERVED', 'RELEASING')), 0) AS held
            FROM order_line
            WHERE product_id = ANY(?)
            GROUP BY product_id
            """;

    // The carts with a line of each product, each cart judged on all of its lines and its payments
    private static final String CARTS = """
            SELECT product_id,
                   count(*) FILTER (WHERE status = 'COMPLETED') AS completed,
                   count(*) FILTER (WHERE status = 'REJECTED') AS rejected,
                   count(*) FILTER (WHERE status NOT IN ('COMPLETED', 'REJECTED')) AS not_final,
                   count(*) FILTER (WHERE status = 'COMPLETED' AND not_all_sold) AS completed_not_all_sold,
                   count(*) FILTER (WHERE status = 'REJECTED' AND holding) AS rejected_holding,
                   coalesce(sum(payments), 0) AS payments,
                   count(*) FILTER (WHERE payments > 1) AS paid_more_than_once,
                   coalesce(sum(payments) FILTER (WHERE status <> 'COMPLETED'), 0) AS payments_without_completion
            FROM (SELECT line.product_id, o.status,
                         (SELECT count(*) FROM payment p WHERE p.order_id = o.id) AS payments,
                         EXISTS (SELECT 1 FROM order_line l WHERE l.order_id = o.id AND l.status <> 'SOLD')
                             AS not_all_sold,
                         EXISTS (SELECT 1 FROM order_line l
                                 WHERE l.order_id = o.id AND l.status IN ('RESERVED', 'SOLD')) AS holding
                  FROM order_line line
                  JOIN orders o ON o.id = line.order_id
                  WHERE line.product_id = ANY(?) AND o.product_id IS NULL) carts
            GROUP BY product_id
            """;

    private static final String ORDERS_NOT_FINAL = """
            SELECT count(*) FROM orders
            WHERE product_id = ANY(?) AND status NOT IN ('COMPLETED', 'REJECTED')
            """;

    private static final String CARTS_NOT_FINAL = """
            SELECT count(DISTINCT o.id) FROM order_line line
            JOIN orders o ON o.id = line.order_id
            WHERE line.product_id = ANY(?) AND o.status NOT IN ('COMPLETED', 'REJECTED')
            """;

    private static final String DECIDED_AMONG = """
            SELECT id FROM orders WHERE id = ANY(?) AND status IN ('COMPLETED', 'REJECTED')
            """;

    // each product's single-product orders beside their idempotency rows, each order counted once however many it has
    private static final String IDEMPOTENCY = """
            SELECT o.product_id,
                   count(DISTINCT o.id) FILTER (WHERE o.status IN ('COMPLETED', 'REJECTED')) AS decided,
                   count(pc.command_id) AS processed,
                   count(pc.command_id) FILTER (WHERE pc.outcome IS DISTINCT FROM o.status) AS disagreeing
            FROM orders o
            LEFT JOIN processed_command pc ON pc.order_id = o.id
            WHERE o.product_id = ANY(?)
            GROUP BY o.product_id
            """;

    private static final String REPEATED_EFFECTS = """
            SELECT count(*) FILTER (WHERE payments > 1) AS paid_more_than_once,
                   count(*) FILTER (WHERE outcomes > 1) AS processed_more_than_once
            FROM (SELECT (SELECT count(*) FROM payment p WHERE p.order_id = o.id) AS payments,
                         (SELECT count(*) FROM processed_command pc
                           WHERE pc.order_id = o.id AND pc.outcome IS NOT NULL) AS outcomes
                  FROM orders o
                  WHERE o.id = ANY(?)) asked
            """;

    // the carts asked about, each judged on all its lines, its payments and its idempotency rows with an outcome
    private static final String CARTS_ASKED = """
            SELECT count(*) AS placed,
                   count(*) FILTER (WHERE status = 'COMPLETED') AS completed,
                   count(*) FILTER (WHERE status = 'REJECTED') AS rejected,
                   count(*) FILTER (WHERE status = 'REJECTED' AND reject_reason = 'INSUFFICIENT_STOCK') AS refused,
                   count(*) FILTER (WHERE status = 'REJECTED' AND reject_reason = 'RESERVATION_TIMEOUT') AS timed_out,
                   count(*) FILTER (WHERE status NOT IN ('COMPLETED', 'REJECTED')) AS not_final,
                   count(*) FILTER (WHERE status = 'COMPLETED' AND not_sold > 0) AS completed_not_all_sold,
                   count(*) FILTER (WHERE status = 'REJECTED' AND holding > 0) AS rejected_holding,
                   coalesce(sum(held), 0) AS held,
                   coalesce(sum(held) FILTER (WHERE status IN ('COMPLETED', 'REJECTED')), 0) AS held_by_final,
                   coalesce(sum(payments), 0) AS payments,
                   count(*) FILTER (WHERE payments > 1) AS paid_more_than_once,
                   coalesce(sum(payments) FILTER (WHERE status <> 'COMPLETED'), 0) AS payments_without_completion,
                   coalesce(sum(outcomes), 0) AS outcome_rows,
                   count(*) FILTER (WHERE status IN ('COMPLETED', 'REJECTED') AND outcomes <> 1
                                       OR status NOT IN ('COMPLETED', 'REJECTED') AND outcomes <> 0
                                       OR disagreeing > 0) AS disagreeing
            FROM (SELECT o.status, o.reject_reason,
                         (SELECT count(*) FROM order_line l WHERE l.order_id = o.id AND l.status <> 'SOLD')
                             AS not_sold,
                         (SELECT count(*) FROM order_line l
                           WHERE l.order_id = o.id AND l.status IN ('RESERVED', 'SOLD')) AS holding,
                         (SELECT coalesce(sum(l.quantity), 0) FROM order_line l
                           WHERE l.order_id = o.id AND l.status IN ('RESERVED', 'RELEASING')) AS held,
                         (SELECT count(*) FROM payment p WHERE p.order_id = o.id) AS payments,
                         (SELECT count(*) FROM processed_command pc
                           WHERE pc.order_id = o.id AND pc.outcome IS NOT NULL) AS outcomes,
                         (SELECT count(*) FROM processed_command pc
                           WHERE pc.order_id = o.id AND pc.outcome IS NOT NULL AND pc.outcome <> o.status)
                             AS disagreeing
                  FROM orders o
                  WHERE o.id = ANY(?) AND o.product_id IS NULL) carts
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

    /** The verdict on a run over every product of {@code initialStock}, every order of which was checked out. */
    public RunVerdict verdict(Map<UUID, Integer> initialStock) {
        return RunVerdict.of(check(initialStock));
    }

    /** Orders of these products not decided yet (neither COMPLETED nor REJECTED). */
    public long ordersNotFinal(Collection<UUID> productIds) {
        return readOne(ORDERS_NOT_FINAL, productIds, "the open orders", rows -> rows.getLong(1));
    }

    /** Carts with a line of these products not decided yet, each counted once. */
    public long cartsNotFinal(Collection<UUID> productIds) {
        return readOne(CARTS_NOT_FINAL, productIds, "the open carts", rows -> rows.getLong(1));
    }

    /** The orders among these that are decided (COMPLETED or REJECTED): the others are still open, or unknown. */
    public Set<UUID> decidedAmong(Collection<UUID> orderIds) {
        return read(DECIDED_AMONG, orderIds, "the decided orders", rows -> {
            var decided = new HashSet<UUID>();
            while (rows.next()) {
                decided.add(rows.getObject(1, UUID.class));
            }
            return decided;
        });
    }

    /** Each product's single-product orders beside the idempotency table, in the collection's order. */
    public Map<UUID, IdempotencyRows> idempotency(Collection<UUID> productIds) {
        return read(IDEMPOTENCY, productIds, "the idempotency rows", rows -> {
            var found = new LinkedHashMap<UUID, IdempotencyRows>();
            productIds.forEach(product -> found.put(product, IdempotencyRows.NONE));
            while (rows.next()) {
                found.put(
                        rows.getObject("product_id", UUID.class),
                        new IdempotencyRows(
                                rows.getLong("decided"), rows.getLong("processed"), rows.getLong("disagreeing")));
            }
            return found;
        });
    }

    /** Of these orders, how many were paid more than once and how many decided more than once. */
    public RepeatedEffects repeatedEffects(Collection<UUID> orderIds) {
        return readOne(
                REPEATED_EFFECTS,
                orderIds,
                "the repeated effects",
                rows -> new RepeatedEffects(
                        rows.getLong("paid_more_than_once"), rows.getLong("processed_more_than_once")));
    }

    /** These carts (orders of several products) by the cart rules; ids of single-product orders are left out. */
    public CartVerdict carts(Collection<UUID> cartIds) {
        return readOne(
                CARTS_ASKED,
                cartIds,
                "the carts",
                rows -> new CartVerdict(
                        rows.getLong("placed"),
                        rows.getLong("completed"),
                        rows.getLong("rejected"),
                        rows.getLong("refused"),
                        rows.getLong("timed_out"),
                        rows.getLong("not_final"),
                        rows.getLong("completed_not_all_sold"),
                        rows.getLong("rejected_holding"),
                        rows.getLong("held"),
                        rows.getLong("held_by_final"),
                        rows.getLong("payments"),
                        rows.getLong("paid_more_than_once"),
                        rows.getLong("payments_without_completion"),
                        rows.getLong("outcome_rows"),
                        rows.getLong("disagreeing")));
    }

    /** What the rows of a query come to. */
    @FunctionalInterface
    private interface Rows<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /** Runs {@code sql}, whose one parameter is {@code ids}, on a connection of its own. */
    private <T> T read(String sql, Collection<UUID> ids, String what, Rows<T> read) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(sql)) {
            statement.setArray(1, ids(connection, ids));
            try (var rows = statement.executeQuery()) {
                return read.read(rows);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read " + what + " of " + ids.size() + " ids", ex);
        }
    }

    /** The same for a query of one row. */
    private <T> T readOne(String sql, Collection<UUID> ids, String what, Rows<T> read) {
        return read(sql, ids, what, rows -> {
            rows.next();
            return read.read(rows);
        });
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
        readCartLines(connection, ids, books);
        readCarts(connection, ids, books);
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

    private static void readCartLines(Connection connection, Array ids, Map<UUID, Books> books) throws SQLException {
        try (var statement = connection.prepareStatement(CART_LINES)) {
            statement.setArray(1, ids);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    var book = book(books, rows.getObject("product_id", UUID.class));
                    book.soldInCarts = rows.getLong("sold");
                    book.heldByCarts = rows.getLong("held");
                }
            }
        }
    }

    private static void readCarts(Connection connection, Array ids, Map<UUID, Books> books) throws SQLException {
        try (var statement = connection.prepareStatement(CARTS)) {
            statement.setArray(1, ids);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    var book = book(books, rows.getObject("product_id", UUID.class));
                    book.carts = new CartInvariants(
                            book.soldInCarts,
                            book.heldByCarts,
                            rows.getLong("completed"),
                            rows.getLong("rejected"),
                            rows.getLong("not_final"),
                            rows.getLong("completed_not_all_sold"),
                            rows.getLong("rejected_holding"),
                            rows.getLong("payments"),
                            rows.getLong("paid_more_than_once"),
                            rows.getLong("payments_without_completion"));
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
        private long soldInCarts;
        private long heldByCarts;
        private CartInvariants carts = CartInvariants.NONE;

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
                    paymentsWithoutCompletion,
                    carts);
        }
    }
}
