package dev.orderpipeline.checkoutlab;

import java.sql.Types;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Status writes of the {@code orders} table; the guarded ones say by their row count whether they applied. */
@Component
final class OrderStatusRepository {

    private static final String FINISH = """
            UPDATE orders
               SET status = :status,
                   reject_reason = :rejectReason,
                   updated_at = now()
             WHERE id = :id
            """;

    private static final String FINISH_IF = FINISH + "   AND status = :expected\n";

    // the guard as a lock: the order is ours until the transaction ends, and nobody else's write gets in between
    private static final String LOCK_IF = """
            SELECT id
              FROM orders
             WHERE id = :id
               AND status = :expected
               FOR UPDATE
            """;

    private static final String CLAIM = """
            UPDATE orders
               SET status = 'PROCESSING',
                   updated_at = now()
             WHERE id = :id
               AND status = 'CREATED'
            """;

    private static final String ABANDON_CLAIM = """
            UPDATE orders
               SET status = 'REJECTED',
                   reject_reason = 'CHECKOUT_FAILED',
                   updated_at = now()
             WHERE id = :id
               AND status = 'PROCESSING'
            """;

    private static final String STATUS = """
            SELECT status
              FROM orders
             WHERE id = :id
            """;

    private final JdbcClient jdbc;

    OrderStatusRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Sets the final status, and the reject reason that goes with REJECTED.
     *
     * @return whether the order was in the status the write requires (always, for {@link StatusWrite#UNGUARDED})
     */
    boolean finish(UUID orderId, LabStatus status, @Nullable LabRejectReason rejectReason, StatusWrite write) {
        if (!status.isFinal()) {
            throw new IllegalArgumentException("a checkout finishes with a final status, not " + status);
        }
        var expected = write.expected();
        var statement = jdbc.sql(expected == null ? FINISH : FINISH_IF)
                .param("id", orderId)
                .param("status", status.name())
                .param("rejectReason", rejectReason == null ? null : rejectReason.name(), Types.VARCHAR);
        if (expected != null) {
            statement = statement.param("expected", expected.name());
        }
        var rows = statement.update();
        if (rows == 0 && expected == null) {
            throw new IllegalStateException("order " + orderId + " being checked out is gone");
        }
        return rows == 1;
    }

    /**
     * Locks the order for the rest of the transaction if it is in the {@code expected} status; false when it is
     * not. Taken before the product row, as the worker does, so that the two never lock the same rows in opposite
     * orders.
     */
    boolean lockIf(UUID orderId, LabStatus expected) {
        return jdbc.sql(LOCK_IF)
                .param("id", orderId)
                .param("expected", expected.name())
                .query(UUID.class)
                .optional()
                .isPresent();
    }

    /** CREATED to PROCESSING, committed on its own; false when the order was not CREATED any more. */
    boolean claim(UUID orderId) {
        return jdbc.sql(CLAIM).param("id", orderId).update() == 1;
    }

    /** PROCESSING to REJECTED (CHECKOUT_FAILED), after a claimed checkout failed; false if it was not PROCESSING. */
    boolean abandonClaim(UUID orderId) {
        return jdbc.sql(ABANDON_CLAIM).param("id", orderId).update() == 1;
    }

    Optional<LabStatus> status(UUID orderId) {
        return jdbc.sql(STATUS)
                .param("id", orderId)
                .query(String.class)
                .optional()
                .map(LabStatus::valueOf);
    }
}
