package dev.orderpipeline.checkoutlab;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The {@code orders} table read with the lab's statuses and reasons, which the production model does not know. */
@Component
final class LabOrders {

    private static final String FIND_BY_ID = """
            SELECT id, user_id, product_id, quantity, status, reject_reason, created_at, updated_at
              FROM orders
             WHERE id = :id
            """;

    private static final String FIND_OWNED = FIND_BY_ID + "   AND user_id = :userId\n";

    private final JdbcClient jdbc;

    LabOrders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<LabOrder> findById(UUID id) {
        return jdbc.sql(FIND_BY_ID).param("id", id).query(LabOrders::map).optional();
    }

    /** The order if it exists and belongs to {@code userId}; empty in both other cases. */
    Optional<LabOrder> findOwned(UUID id, String userId) {
        return jdbc.sql(FIND_OWNED)
                .param("id", id)
                .param("userId", userId)
                .query(LabOrders::map)
                .optional();
    }

    private static LabOrder map(ResultSet row, int rowNumber) throws SQLException {
        var rejectReason = row.getString("reject_reason");
        return new LabOrder(
                row.getObject("id", UUID.class),
                row.getString("user_id"),
                row.getObject("product_id", UUID.class),
                row.getInt("quantity"),
                LabStatus.valueOf(row.getString("status")),
                rejectReason == null ? null : LabRejectReason.valueOf(rejectReason),
                instant(row, "created_at"),
                instant(row, "updated_at"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        return Objects.requireNonNull(row.getObject(column, OffsetDateTime.class), column)
                .toInstant();
    }
}
