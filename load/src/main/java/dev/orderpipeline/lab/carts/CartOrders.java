package dev.orderpipeline.lab.carts;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The carts of a run as the database has them: which are decided (polled by {@link DecisionWatch}) and how they
 * ended. The verdict on them is the invariants module's; this only reads outcomes.
 */
final class CartOrders {

    private static final String DECIDED = """
            SELECT id FROM orders
            WHERE id = ANY(?) AND status IN ('COMPLETED', 'REJECTED')
            """;

    private static final String OUTCOMES = """
            SELECT status, reject_reason, count(*) AS carts FROM orders
            WHERE id = ANY(?)
            GROUP BY status, reject_reason
            """;

    private final DataSource dataSource;

    CartOrders(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A cart seen decided, and when ({@link System#nanoTime()}). */
    @FunctionalInterface
    interface Seen {
        void decided(UUID cart, long at);
    }

    /** Whether to stop, given the carts still open. */
    @FunctionalInterface
    interface Enough {
        boolean enough(Set<UUID> stillOpen);
    }

    /**
     * Polls every {@code pause}, on one connection, for which of the {@code open} carts are decided, removing them
     * from it, until {@code enough} says so.
     */
    void watch(Set<UUID> open, Duration pause, Seen seen, Enough enough) {
        try (var connection = dataSource.getConnection()) {
            while (true) {
                var now = System.nanoTime();
                for (var decided : decided(connection, open)) {
                    seen.decided(decided, now);
                    open.remove(decided);
                }
                if (enough.enough(open)) {
                    return;
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

    /** How the carts ended. */
    CartOutcomes outcomes(Collection<UUID> carts) {
        long completed = 0;
        long rejected = 0;
        long notFinal = 0;
        var reasons = new TreeMap<String, Long>();
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(OUTCOMES)) {
            statement.setArray(1, ids(connection, carts));
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    var count = rows.getLong("carts");
                    switch (rows.getString("status")) {
                        case "COMPLETED" -> completed += count;
                        case "REJECTED" -> {
                            rejected += count;
                            reasons.merge(reason(rows.getString("reject_reason")), count, Long::sum);
                        }
                        default -> notFinal += count;
                    }
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read how the carts ended", ex);
        }
        return new CartOutcomes(completed, rejected, notFinal, reasons);
    }

    private static String reason(@Nullable String reason) {
        return reason == null ? "UNKNOWN" : reason;
    }

    private static Set<UUID> decided(Connection connection, Set<UUID> open) throws SQLException {
        var decided = new HashSet<UUID>();
        if (open.isEmpty()) {
            return decided;
        }
        try (var statement = connection.prepareStatement(DECIDED)) {
            statement.setArray(1, ids(connection, open));
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    decided.add(rows.getObject(1, UUID.class));
                }
            }
        }
        return decided;
    }

    private static java.sql.Array ids(Connection connection, Collection<UUID> ids) throws SQLException {
        return connection.createArrayOf("uuid", ids.toArray(UUID[]::new));
    }
}
