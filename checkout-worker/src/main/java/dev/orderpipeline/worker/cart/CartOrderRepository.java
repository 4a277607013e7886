package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.RejectReason;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code orders} rows of carts, as the coordinator starts and decides them. */
@Repository
class CartOrderRepository {

    // In id order, as every transaction locks orders (the single-product applier too), before any line or product.
    // FOR NO KEY UPDATE, as the UPDATEs below take: the key never changes, so the rows that refer to the order (its
    // lines, payment, idempotency key) need not wait.
    private static final String LOCK = """
            SELECT id, user_id, product_id IS NULL AS cart, status, reject_reason,
                   checkout_deadline IS NOT NULL AS started
            FROM orders
            WHERE id = ANY(:ids)
            ORDER BY id
            FOR NO KEY UPDATE
            """;

    // SKIP LOCKED: an order a coordinator is deciding now is not late, and two sweepers never wait for each other.
    // Overdue by the database's clock, and only up to the moment the saga's consumers had read everything by.
    private static final String LOCK_OVERDUE = """
            SELECT id, user_id, product_id IS NULL AS cart, status, reject_reason,
                   checkout_deadline IS NOT NULL AS started
            FROM orders
            WHERE status = 'CREATED' AND product_id IS NULL AND checkout_deadline < least(now(), :cutoff)
              AND id <> ALL(:parked)
            ORDER BY id
            LIMIT :limit
            FOR NO KEY UPDATE SKIP LOCKED
            """;

    private static final String LOCK_OVERDUE_AMONG = """
            SELECT id, user_id, product_id IS NULL AS cart, status, reject_reason,
                   checkout_deadline IS NOT NULL AS started
            FROM orders
            WHERE id = ANY(:ids)
              AND status = 'CREATED' AND product_id IS NULL AND checkout_deadline < least(now(), :cutoff)
            ORDER BY id
            FOR NO KEY UPDATE SKIP LOCKED
            """;

    // The database's clock, so that every worker's sweeper judges the deadline by the same one.
    private static final String START = """
            UPDATE orders
            SET checkout_deadline = now() + make_interval(secs => :seconds), updated_at = now()
            WHERE id = ANY(:ids) AND status = 'CREATED' AND product_id IS NULL AND checkout_deadline IS NULL
            """;

    private static final String DECIDE = """
            UPDATE orders
            SET status = v.status, reject_reason = v.reject_reason, updated_at = now()
            FROM unnest(:ids, :statuses, :rejectReasons) AS v(id, status, reject_reason)
            WHERE orders.id = v.id AND orders.status = 'CREATED' AND orders.checkout_deadline IS NOT NULL
            """;

    private final JdbcClient jdbc;

    CartOrderRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the orders that exist among {@code ids}; returns them by id. */
    Map<UUID, CartOrder> lock(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return jdbc
                .sql(LOCK)
                .param("ids", ids.stream().sorted().toArray(UUID[]::new))
                .query(CartOrderRepository::order)
                .stream()
                .collect(Collectors.toMap(CartOrder::id, Function.identity()));
    }

    /**
     * Locks up to {@code limit} carts whose saga is past its deadline, the deadline before {@code cutoff} too, that
     * nobody else holds and that are not among {@code parked}.
     */
    List<CartOrder> lockOverdue(OffsetDateTime cutoff, int limit, Collection<UUID> parked) {
        return jdbc.sql(LOCK_OVERDUE)
                .param("cutoff", cutoff)
                .param("limit", limit)
                .param("parked", parked.toArray(UUID[]::new))
                .query(CartOrderRepository::order)
                .list();
    }

    /** Locks those of {@code ids} that are carts past their deadline (before {@code cutoff}) and nobody else holds. */
    List<CartOrder> lockOverdue(Collection<UUID> ids, OffsetDateTime cutoff) {
        return jdbc.sql(LOCK_OVERDUE_AMONG)
                .param("ids", ids.stream().sorted().toArray(UUID[]::new))
                .param("cutoff", cutoff)
                .query(CartOrderRepository::order)
                .list();
    }

    /** Starts the sagas of the given CREATED carts: sets their deadline; returns how many started. */
    int start(Collection<UUID> ids, Duration timeout) {
        if (ids.isEmpty()) {
            return 0;
        }
        return jdbc.sql(START)
                .param("ids", ids.toArray(UUID[]::new))
                .param("seconds", timeout.toMillis() / 1000.0)
                .update();
    }

    /** Gives each decided cart its outcome, if it is still CREATED; returns how many changed. */
    int decide(List<CartDecision> decisions) {
        if (decisions.isEmpty()) {
            return 0;
        }
        return jdbc.sql(DECIDE)
                .param("ids", decisions.stream().map(CartDecision::orderId).toArray(UUID[]::new))
                .param(
                        "statuses",
                        decisions.stream().map(d -> d.outcome().name()).toArray(String[]::new))
                .param("rejectReasons", CartDecision.rejectReasonNames(decisions))
                .update();
    }

    private static CartOrder order(ResultSet rs, int row) throws SQLException {
        var reason = rs.getString("reject_reason");
        return new CartOrder(
                rs.getObject("id", UUID.class),
                rs.getString("user_id"),
                rs.getBoolean("cart"),
                rs.getString("status"),
                reason == null ? null : RejectReason.valueOf(reason),
                rs.getBoolean("started"));
    }
}
