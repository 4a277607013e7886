package dev.orderpipeline.lab.carts;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Polls the database for the carts of a run that are decided, and notes when it first saw each one: how the lab
 * waits for a run to end, and the saga's decision times when the lab cannot read {@code checkout.results}. It holds
 * one connection while it polls, so a poll costs a query, not a new session.
 */
final class DecisionWatch {

    private static final String DECIDED = """
            SELECT id FROM orders
            WHERE id = ANY(?) AND status IN ('COMPLETED', 'REJECTED')
            """;

    private final DataSource dataSource;
    private final Duration pause;

    DecisionWatch(DataSource dataSource, Duration pause) {
        this.dataSource = dataSource;
        this.pause = pause;
    }

    /**
     * Polls until at most {@code mayStayOpen} of the orders are undecided, or the deadline ({@link
     * System#nanoTime()}) passes.
     *
     * @return when ({@link System#nanoTime()}) each decided order was first seen decided
     */
    Map<UUID, Long> await(Collection<UUID> orders, long mayStayOpen, long deadline) {
        var open = new HashSet<>(orders);
        var seen = new HashMap<UUID, Long>();
        try (var connection = dataSource.getConnection()) {
            while (true) {
                var now = System.nanoTime();
                for (var decided : decided(connection, open)) {
                    seen.put(decided, now);
                    open.remove(decided);
                }
                if (open.size() <= mayStayOpen || System.nanoTime() - deadline > 0) {
                    return seen;
                }
                Thread.sleep(pause);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read which carts are decided", ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the carts' decisions", ex);
        }
    }

    private static Set<UUID> decided(Connection connection, Set<UUID> open) throws SQLException {
        var decided = new HashSet<UUID>();
        if (open.isEmpty()) {
            return decided;
        }
        try (var statement = connection.prepareStatement(DECIDED)) {
            statement.setArray(1, connection.createArrayOf("uuid", open.toArray(UUID[]::new)));
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    decided.add(rows.getObject(1, UUID.class));
                }
            }
        }
        return decided;
    }
}
