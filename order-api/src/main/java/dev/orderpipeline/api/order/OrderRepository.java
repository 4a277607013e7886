package dev.orderpipeline.api.order;

import dev.orderpipeline.contract.RejectReason;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The {@code orders} table. */
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

    private static final String FIND_BY_ID = """
            SELECT %s
              FROM orders
             WHERE id = :id
            """.formatted(COLUMNS);

    private static final String FIND_OWNED = """
            SELECT %s
              FROM orders
             WHERE id = :id
               AND user_id = :userId
            """.formatted(COLUMNS);

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
                .query(OrderRepository::map)
                .optional();
    }

    /** The order whatever its owner; for code that has already checked ownership. */
    public Optional<Order> findById(UUID id) {
        return jdbc.sql(FIND_BY_ID).param("id", id).query(OrderRepository::map).optional();
    }

    /** The order if it exists and belongs to {@code userId}; empty in both other cases. */
    public Optional<Order> findOwned(UUID id, String userId) {
        return jdbc.sql(FIND_OWNED)
                .param("id", id)
                .param("userId", userId)
                .query(OrderRepository::map)
                .optional();
    }

    private static Order map(ResultSet row, int rowNumber) throws SQLException {
        var rejectReason = row.getString("reject_reason");
        return new Order(
                row.getObject("id", UUID.class),
                row.getString("user_id"),
                row.getObject("product_id", UUID.class),
                row.getInt("quantity"),
                OrderStatus.valueOf(row.getString("status")),
                rejectReason == null ? null : RejectReason.valueOf(rejectReason),
                instant(row, "created_at"),
                instant(row, "updated_at"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        return Objects.requireNonNull(row.getObject(column, OffsetDateTime.class), column)
                .toInstant();
    }
}
