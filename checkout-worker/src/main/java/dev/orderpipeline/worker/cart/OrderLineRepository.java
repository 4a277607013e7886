package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.RejectReason;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code order_line} rows: a cart's lines and their states. */
@Repository
class OrderLineRepository {

    // Both locks return the rows in the one order every transaction takes line locks in (by order, then line), and
    // PostgreSQL locks the rows of a SELECT ... ORDER BY ... FOR NO KEY UPDATE in that order. FOR NO KEY UPDATE is the
    // mode the status UPDATE takes anyway; no line's key ever changes.
    private static final String LOCK_OF_ORDERS = """
            SELECT order_id, line_no, product_id, quantity, status, reject_reason
            FROM order_line
            WHERE order_id = ANY(:orderIds)
            ORDER BY order_id, line_no
            FOR NO KEY UPDATE
            """;

    private static final String LOCK_LINES = """
            SELECT order_id, line_no, product_id, quantity, status, reject_reason
            FROM order_line
            WHERE (order_id, line_no) IN (SELECT * FROM unnest(:orderIds, :lineNos))
            ORDER BY order_id, line_no
            FOR NO KEY UPDATE
            """;

    // Each line moves only from the state the transaction decided from; the row count says whether all did.
    private static final String CHANGE = """
            UPDATE order_line
            SET status = v.to_status, reject_reason = v.reject_reason, updated_at = now()
            FROM unnest(:orderIds, :lineNos, :fromStatuses, :toStatuses, :rejectReasons)
                AS v(order_id, line_no, from_status, to_status, reject_reason)
            WHERE order_line.order_id = v.order_id
              AND order_line.line_no = v.line_no
              AND order_line.status = v.from_status
            """;

    // Lines whose release is overdue, claimed for a new send by moving their updated_at; SKIP LOCKED, so the sweep
    // never waits for a reserver or a coordinator that holds one.
    private static final String CLAIM_STALE_RELEASES = """
            UPDATE order_line
            SET updated_at = now()
            WHERE (order_id, line_no) IN (
                SELECT order_id, line_no
                FROM order_line
                WHERE status = 'RELEASING' AND updated_at < now() - make_interval(secs => :seconds)
                ORDER BY order_id, line_no
                LIMIT :limit
                FOR NO KEY UPDATE SKIP LOCKED)
            RETURNING order_id, line_no, product_id, quantity, status, reject_reason
            """;

    private final JdbcClient jdbc;

    OrderLineRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks every line of the given orders; returns them by order, each order's in line order. */
    Map<UUID, List<Line>> lockOfOrders(Collection<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return Map.of();
        }
        return jdbc
                .sql(LOCK_OF_ORDERS)
                .param("orderIds", orderIds.toArray(UUID[]::new))
                .query(OrderLineRepository::line)
                .stream()
                .collect(Collectors.groupingBy(Line::orderId));
    }

    /** Locks the lines that exist among {@code keys}; returns them by key. */
    Map<Line.Key, Line> lock(Collection<Line.Key> keys) {
        if (keys.isEmpty()) {
            return Map.of();
        }
        return jdbc
                .sql(LOCK_LINES)
                .param("orderIds", keys.stream().map(Line.Key::orderId).toArray(UUID[]::new))
                .param("lineNos", keys.stream().map(Line.Key::lineNo).toArray(Integer[]::new))
                .query(OrderLineRepository::line)
                .stream()
                .collect(Collectors.toMap(Line::key, Function.identity()));
    }

    /**
     * Moves each line from the state it was locked in to its new one.
     *
     * @param changes each line once, as locked (its current state) and as it becomes
     * @return how many lines moved; fewer than {@code changes.size()} means a line was not in the state locked
     */
    int change(List<LineChange> changes) {
        if (changes.isEmpty()) {
            return 0;
        }
        var reasons = new @Nullable String[changes.size()];
        for (int i = 0; i < reasons.length; i++) {
            var reason = changes.get(i).after().rejectReason();
            reasons[i] = reason == null ? null : reason.name();
        }
        return jdbc.sql(CHANGE)
                .param(
                        "orderIds",
                        changes.stream().map(c -> c.before().orderId()).toArray(UUID[]::new))
                .param("lineNos", changes.stream().map(c -> c.before().lineNo()).toArray(Integer[]::new))
                .param(
                        "fromStatuses",
                        changes.stream().map(c -> c.before().status().name()).toArray(String[]::new))
                .param(
                        "toStatuses",
                        changes.stream().map(c -> c.after().status().name()).toArray(String[]::new))
                .param("rejectReasons", reasons)
                .update();
    }

    /** Claims up to {@code limit} lines RELEASING for longer than {@code after}, to send their release again. */
    List<Line> claimStaleReleases(Duration after, int limit) {
        return jdbc.sql(CLAIM_STALE_RELEASES)
                .param("seconds", after.toMillis() / 1000.0)
                .param("limit", limit)
                .query(OrderLineRepository::line)
                .list();
    }

    private static Line line(ResultSet rs, int row) throws SQLException {
        var reason = rs.getString("reject_reason");
        return new Line(
                rs.getObject("order_id", UUID.class),
                rs.getInt("line_no"),
                rs.getObject("product_id", UUID.class),
                rs.getInt("quantity"),
                LineStatus.valueOf(rs.getString("status")),
                reason == null ? null : RejectReason.valueOf(reason));
    }
}
