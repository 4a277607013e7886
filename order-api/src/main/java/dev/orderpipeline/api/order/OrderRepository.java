package dev.orderpipeline.api.order;

import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.RejectReason;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The {@code orders} table, and the {@code order_line} rows of carts. */
@Component
public final class OrderRepository {

    private static final String COLUMNS =
            "id, user_id, product_id, quantity, status, reject_reason, created_at, updated_at";

    // Inserting from the product row makes "the product exists" part of the statement: no row, no order. So is "its
    // payment can be recorded": price times quantity within what payment.amount holds, or every checkout of the
    // order would fail on it.
    private static final String INSERT = """
            INSERT INTO orders (id, user_id, product_id, quantity)
            SELECT :id, :userId, p.id, :quantity
              FROM product p
             WHERE p.id = :productId
               AND p.price * :quantity <= :maxAmount
            RETURNING %s
            """.formatted(COLUMNS);

    // A cart in one statement, so in one transaction: the order row only if every line's product exists and the
    // amount over all lines fits a payment, and the lines only with the order row (they select from what it
    // returned). The line count tells the caller that every line went in. The lines go in in product id order, so
    // their foreign-key checks take the products' FOR KEY SHARE locks in the order every writer of products locks
    // them: a cart listing [B, A] cannot deadlock with a writer that holds A and waits for B.
    private static final String INSERT_CART = """
            WITH line AS (
                SELECT *
                  FROM unnest(CAST(:lineNos AS integer[]), CAST(:productIds AS uuid[]), CAST(:quantities AS integer[]))
                       AS l(line_no, product_id, quantity)
            ), priced AS (
                SELECT line.quantity, p.price
                  FROM line
                  JOIN product p ON p.id = line.product_id
            ), placed AS (
                INSERT INTO orders (id, user_id)
                SELECT :id, :userId
                 WHERE (SELECT count(*) FROM priced) = :lineCount
                   AND (SELECT sum(price * quantity) FROM priced) <= :maxAmount
                RETURNING %s
            ), lines AS (
                INSERT INTO order_line (order_id, line_no, product_id, quantity)
                SELECT placed.id, line.line_no, line.product_id, line.quantity
                  FROM placed, line
                 ORDER BY line.product_id
                RETURNING line_no
            )
            SELECT placed.*, (SELECT count(*) FROM lines) AS line_rows
              FROM placed
            """.formatted(COLUMNS);

    private static final String CART_AMOUNT = """
            SELECT coalesce(sum(p.price * l.quantity), 0)
              FROM unnest(CAST(:productIds AS uuid[]), CAST(:quantities AS integer[])) AS l(product_id, quantity)
              JOIN product p ON p.id = l.product_id
            """;

    private static final String KNOWN_PRODUCTS = """
            SELECT id
              FROM product
             WHERE id = ANY(CAST(:productIds AS uuid[]))
            """;

    // the order and its lines in one statement, so in one snapshot: the lines' states agree with the order's
    private static final String FIND_BY_ID = """
            SELECT o.id, o.user_id, o.product_id, o.quantity, o.status, o.reject_reason, o.created_at, o.updated_at,
                   l.line_no, l.product_id AS line_product_id, l.quantity AS line_quantity, l.status AS line_status,
                   l.reject_reason AS line_reject_reason
              FROM orders o
              LEFT JOIN order_line l ON l.order_id = o.id
             WHERE o.id = :id
            """;

    private static final String FIND_OWNED = FIND_BY_ID + """
               AND o.user_id = :userId
             ORDER BY l.line_no
            """;

    private static final String FIND_BY_ID_ORDERED = FIND_BY_ID + " ORDER BY l.line_no\n";

    private final JdbcClient jdbc;

    OrderRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Places the order, or returns empty when its product does not exist or its amount at the product's price is over
     * {@link NewOrder#MAX_AMOUNT}.
     */
    Optional<Order> insert(NewOrder order) {
        return jdbc.sql(INSERT)
                .param("id", order.id())
                .param("userId", order.userId())
                .param("productId", order.productId())
                .param("quantity", order.quantity())
                .param("maxAmount", NewOrder.MAX_AMOUNT)
                .query((row, rowNumber) -> singleProduct(row))
                .optional();
    }

    /**
     * Places the cart, its order row and every line (PENDING) together, or returns empty when one of its products
     * does not exist or its amount over all lines is over {@link NewOrder#MAX_AMOUNT}.
     */
    Optional<Order> insert(NewCart cart) {
        var lines = cart.lines();
        return jdbc.sql(INSERT_CART)
                .param("id", cart.id())
                .param("userId", cart.userId())
                .param("lineNos", lines.stream().map(CartLine::lineNo).toArray(Integer[]::new))
                .param("productIds", productIds(lines))
                .param("quantities", quantities(lines))
                .param("lineCount", lines.size())
                .param("maxAmount", NewOrder.MAX_AMOUNT)
                .query((row, rowNumber) -> {
                    if (row.getInt("line_rows") != lines.size()) {
                        throw new IllegalStateException("cart " + cart.id() + " was placed with "
                                + row.getInt("line_rows") + " of its " + lines.size() + " lines");
                    }
                    var placed = lines.stream()
                            .map(line -> new OrderLine(
                                    line.lineNo(), line.productId(), line.quantity(), LineStatus.PENDING, null))
                            .toList();
                    return OrderRow.of(row).cart(placed);
                })
                .optional();
    }

    /** The first of the cart's products, in line order, that does not exist; empty when they all do. */
    Optional<UUID> firstUnknownProduct(NewCart cart) {
        var known = jdbc.sql(KNOWN_PRODUCTS)
                .param("productIds", productIds(cart.lines()))
                .query(UUID.class)
                .set();
        return cart.lines().stream()
                .map(CartLine::productId)
                .filter(id -> !known.contains(id))
                .findFirst();
    }

    /** What the cart would cost at its products' prices now. */
    BigDecimal amount(NewCart cart) {
        return jdbc.sql(CART_AMOUNT)
                .param("productIds", productIds(cart.lines()))
                .param("quantities", quantities(cart.lines()))
                .query(BigDecimal.class)
                .single();
    }

    /** The order whatever its owner; for code that has already checked ownership. */
    public Optional<Order> findById(UUID id) {
        return jdbc.sql(FIND_BY_ID_ORDERED).param("id", id).query(OrderRepository::withLines);
    }

    /** The order if it exists and belongs to {@code userId}; empty in both other cases. */
    public Optional<Order> findOwned(UUID id, String userId) {
        return jdbc.sql(FIND_OWNED).param("id", id).param("userId", userId).query(OrderRepository::withLines);
    }

    /** An order's row, with its lines' rows after it when it is a cart (one row per line, by line number). */
    private static Optional<Order> withLines(ResultSet rows) throws SQLException {
        if (!rows.next()) {
            return Optional.empty();
        }
        if (rows.getObject("product_id") != null) {
            return Optional.of(singleProduct(rows));
        }
        var order = OrderRow.of(rows);
        var lines = new ArrayList<OrderLine>();
        do {
            lines.add(line(rows));
        } while (rows.next());
        return Optional.of(order.cart(lines));
    }

    private static Order singleProduct(ResultSet row) throws SQLException {
        var order = OrderRow.of(row);
        return Order.ofProduct(
                order.id(),
                order.userId(),
                row.getObject("product_id", UUID.class),
                row.getInt("quantity"),
                order.status(),
                order.rejectReason(),
                order.createdAt(),
                order.updatedAt());
    }

    /** The columns of an order row that both kinds of order have. */
    private record OrderRow(
            UUID id,
            String userId,
            OrderStatus status,
            @Nullable RejectReason rejectReason,
            Instant createdAt,
            Instant updatedAt) {

        static OrderRow of(ResultSet row) throws SQLException {
            return new OrderRow(
                    row.getObject("id", UUID.class),
                    row.getString("user_id"),
                    OrderStatus.valueOf(row.getString("status")),
                    OrderRepository.rejectReason(row, "reject_reason"),
                    instant(row, "created_at"),
                    instant(row, "updated_at"));
        }

        Order cart(List<OrderLine> lines) {
            return Order.ofCart(id, userId, lines, status, rejectReason, createdAt, updatedAt);
        }
    }

    private static OrderLine line(ResultSet row) throws SQLException {
        return new OrderLine(
                row.getInt("line_no"),
                row.getObject("line_product_id", UUID.class),
                row.getInt("line_quantity"),
                LineStatus.valueOf(row.getString("line_status")),
                rejectReason(row, "line_reject_reason"));
    }

    private static @Nullable RejectReason rejectReason(ResultSet row, String column) throws SQLException {
        var reason = row.getString(column);
        return reason == null ? null : RejectReason.valueOf(reason);
    }

    private static String[] productIds(List<CartLine> lines) {
        return lines.stream().map(line -> line.productId().toString()).toArray(String[]::new);
    }

    private static Integer[] quantities(List<CartLine> lines) {
        return lines.stream().map(CartLine::quantity).toArray(Integer[]::new);
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        return Objects.requireNonNull(row.getObject(column, OffsetDateTime.class), column)
                .toInstant();
    }
}
