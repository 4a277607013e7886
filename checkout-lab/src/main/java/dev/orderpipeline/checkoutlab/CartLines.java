package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.order.LineStatus;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.RejectReason;
import java.sql.Types;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A cart's {@code order_line} rows as the lab's cart strategies lock and write them. Every write is guarded by the
 * line being PENDING, so that a line the pipeline's saga reserved is never decided here too.
 */
@Component
final class CartLines {

    // PostgreSQL locks the rows in the order it returns them: by line number, as the worker's saga locks them
    private static final String LOCK_PENDING = """
            SELECT line_no, product_id, quantity
              FROM order_line
             WHERE order_id = :orderId
               AND status = 'PENDING'
             ORDER BY line_no
               FOR UPDATE
            """;

    private static final String DECIDE = """
            UPDATE order_line
               SET status = :status,
                   reject_reason = :rejectReason,
                   updated_at = now()
             WHERE order_id = :orderId
               AND line_no = :lineNo
               AND status = 'PENDING'
            """;

    private static final String CANCEL_PENDING = """
            UPDATE order_line
               SET status = 'CANCELLED',
                   updated_at = now()
             WHERE order_id = :orderId
               AND status = 'PENDING'
            """;

    private final JdbcClient jdbc;

    CartLines(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the cart's lines that are still PENDING, for the rest of the transaction, and returns them in order. */
    List<CartLine> lockPending(UUID orderId) {
        return jdbc.sql(LOCK_PENDING)
                .param("orderId", orderId)
                .query((row, rowNumber) -> new CartLine(
                        row.getInt("line_no"), row.getObject("product_id", UUID.class), row.getInt("quantity")))
                .list();
    }

    /** PENDING to a decided state; the caller holds the line's lock, so it must apply. */
    void decide(UUID orderId, CartLine line, LineStatus status, @Nullable RejectReason rejectReason) {
        var rows = jdbc.sql(DECIDE)
                .param("orderId", orderId)
                .param("lineNo", line.lineNo())
                .param("status", status.name())
                .param("rejectReason", rejectReason == null ? null : rejectReason.name(), Types.VARCHAR)
                .update();
        if (rows != 1) {
            throw new IllegalStateException("line " + line.lineNo() + " of order " + orderId
                    + " is not PENDING any more under this transaction's lock");
        }
    }

    /** Every line still PENDING to CANCELLED: nothing was taken for them. */
    void cancelPending(UUID orderId) {
        jdbc.sql(CANCEL_PENDING).param("orderId", orderId).update();
    }
}
