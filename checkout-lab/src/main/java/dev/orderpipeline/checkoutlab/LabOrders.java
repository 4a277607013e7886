package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.order.LineStatus;
import dev.orderpipeline.contract.RejectReason;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The {@code orders} table, and a cart's {@code order_line} rows, read with the lab's statuses and reasons, which
 * the production model does not know.
 */
@Component
final class LabOrders {

    // the order and its lines in one statement, so in one snapshot; a single-product order has no line rows
    private static final String FIND_BY_ID = """
            SELECT o.id, o.user_id, o.product_id, o.quantity, o.status, o.reject_reason, o.created_at, o.updated_at,
                   l.line_no, l.product_id AS line_product_id, l.quantity AS line_quantity, l.status AS line_status,
                   l.reject_reason AS line_reject_reason
              FROM orders o
              LEFT JOIN order_line l ON l.order_id = o.id
             WHERE o.id = :id
            """;

    private static final String FIND_OWNED = FIND_BY_ID + "   AND o.user_id = :userId\n ORDER BY l.line_no\n";

    private static final String FIND_BY_ID_ORDERED = FIND_BY_ID + " ORDER BY l.line_no\n";

    private final JdbcClient jdbc;

    LabOrders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A single-product order, for the strategies that check those out. */
    Optional<LabOrder> findById(UUID id) {
        return find(id).map(order -> switch (order) {
            case LabOrder single -> single;
            case LabCart cart -> throw new IllegalStateException("order " + id + " is a cart");
        });
    }

    /** A cart, for the strategies that check those out. */
    Optional<LabCart> findCart(UUID id) {
        return find(id).map(order -> switch (order) {
            case LabCart cart -> cart;
            case LabOrder single -> throw new IllegalStateException("order " + id + " is not a cart");
        });
    }

    /** The order, of one product or a cart, if it exists and belongs to {@code userId}; empty in both other cases. */
    Optional<LabCheckoutable> findOwned(UUID id, String userId) {
        return jdbc.sql(FIND_OWNED).param("id", id).param("userId", userId).query(LabOrders::withLines);
    }

    private Optional<LabCheckoutable> find(UUID id) {
        return jdbc.sql(FIND_BY_ID_ORDERED).param("id", id).query(LabOrders::withLines);
    }

    private static Optional<LabCheckoutable> withLines(ResultSet rows) throws SQLException {
        if (!rows.next()) {
            return Optional.empty();
        }
        var id = rows.getObject("id", UUID.class);
        var userId = rows.getString("user_id");
        var status = LabStatus.valueOf(rows.getString("status"));
        var rejectReason = rejectReason(rows.getString("reject_reason"));
        var createdAt = instant(rows, "created_at");
        var updatedAt = instant(rows, "updated_at");
        var productId = rows.getObject("product_id", UUID.class);
        if (productId != null) {
            return Optional.of(new LabOrder(
                    id, userId, productId, rows.getInt("quantity"), status, rejectReason, createdAt, updatedAt));
        }
        var lines = new ArrayList<LabLine>();
        do {
            var lineReason = rows.getString("line_reject_reason");
            lines.add(new LabLine(
                    rows.getInt("line_no"),
                    rows.getObject("line_product_id", UUID.class),
                    rows.getInt("line_quantity"),
                    LineStatus.valueOf(rows.getString("line_status")),
                    lineReason == null ? null : RejectReason.valueOf(lineReason)));
        } while (rows.next());
        return Optional.of(new LabCart(id, userId, null, null, lines, status, rejectReason, createdAt, updatedAt));
    }

    private static @Nullable LabRejectReason rejectReason(@Nullable String reason) {
        return reason == null ? null : LabRejectReason.valueOf(reason);
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        return Objects.requireNonNull(row.getObject(column, OffsetDateTime.class), column)
                .toInstant();
    }
}
