package dev.orderpipeline.worker.checkout;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code orders} rows checkout commands refer to. */
@Repository
class OrderRepository {

    // Locked so that no other writer can move an order out of CREATED between this read and the decision; in id
    // order so that two transactions over overlapping orders cannot deadlock. FOR NO KEY UPDATE, as the UPDATE of its
    // status would take: the key never changes, so the rows that refer to the order need not wait.
    private static final String LOCK_ORDERS = """
            SELECT id, product_id, quantity, user_id, status
            FROM orders
            WHERE id = ANY(:ids)
            ORDER BY id
            FOR NO KEY UPDATE
            """;

    private static final String RECORD_DECISIONS = """
            UPDATE orders
            SET status = v.status, reject_reason = v.reject_reason, updated_at = now()
            FROM unnest(:ids, :statuses, :rejectReasons) AS v(id, status, reject_reason)
            WHERE orders.id = v.id AND orders.status = 'CREATED'
            """;

    private final JdbcClient jdbc;

    OrderRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the orders that exist among {@code ids} for the rest of the transaction, and returns them by id. */
    Map<UUID, CheckoutOrder> lockAll(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return jdbc
                .sql(LOCK_ORDERS)
                .param("ids", ids.toArray(UUID[]::new))
                .query((rs, row) -> new CheckoutOrder(
                        rs.getObject("id", UUID.class),
                        rs.getObject("product_id", UUID.class),
                        rs.getInt("quantity"),
                        rs.getString("user_id"),
                        rs.getString("status")))
                .stream()
                .collect(Collectors.toMap(CheckoutOrder::id, Function.identity()));
    }

    /** Gives each decided order its outcome, if it is still CREATED; returns how many orders changed. */
    int recordDecisions(List<Decision> decisions) {
        if (decisions.isEmpty()) {
            return 0;
        }
        return jdbc.sql(RECORD_DECISIONS)
                .param("ids", decisions.stream().map(d -> d.command().orderId()).toArray(UUID[]::new))
                .param(
                        "statuses",
                        decisions.stream().map(d -> d.outcome().name()).toArray(String[]::new))
                .param("rejectReasons", Decision.rejectReasonNames(decisions))
                .update();
    }
}
