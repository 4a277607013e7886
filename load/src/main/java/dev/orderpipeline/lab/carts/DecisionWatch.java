package dev.orderpipeline.lab.carts;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Polls the database, from the release of a burst on, for the carts that are decided and notes when it first saw
 * each one: the decision time of a cart whose answer the lab did not get (a client timeout the server outlived, the
 * saga when {@code checkout.results} cannot be read), and how the lab waits for a run to end.
 */
final class DecisionWatch implements AutoCloseable {

    private static final String DECIDED = """
            SELECT id FROM orders
            WHERE id = ANY(?) AND status IN ('COMPLETED', 'REJECTED')
            """;

    private final Map<UUID, Long> seen = new ConcurrentHashMap<>();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Future<?> polling;

    /** The carts that may stay undecided for the watch to end: unknown (null) until every checkout was answered. */
    private volatile @Nullable Set<UUID> mayStayOpen;

    private volatile boolean stopped;

    /** Starts polling now, on one connection, every {@code pause}. */
    DecisionWatch(DataSource dataSource, Collection<UUID> carts, Duration pause) {
        var open = new HashSet<>(carts);
        polling = executor.submit(() -> poll(dataSource, open, pause));
    }

    /**
     * Waits until every cart outside {@code mayStayOpen} (the ones whose checkout failed, that nothing will decide)
     * is decided, or the deadline ({@link System#nanoTime()}) passes. A cart is waited for by who it is, not counted:
     * a failed checkout whose cart was decided all the same must not stand in for one still being decided.
     *
     * @return when ({@link System#nanoTime()}) each decided cart was first seen decided
     */
    Map<UUID, Long> await(Set<UUID> mayStayOpen, long deadline) {
        this.mayStayOpen = Set.copyOf(mayStayOpen);
        try {
            polling.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException ex) {
            // the carts still open count as not final
        } catch (ExecutionException ex) {
            throw new IllegalStateException("could not read which carts are decided", ex.getCause());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
        return Map.copyOf(seen);
    }

    @Override
    public void close() {
        stopped = true;
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private @Nullable Void poll(DataSource dataSource, Set<UUID> open, Duration pause)
            throws SQLException, InterruptedException {
        try (var connection = dataSource.getConnection()) {
            while (true) {
                var now = System.nanoTime();
                for (var decided : decided(connection, open)) {
                    seen.putIfAbsent(decided, now);
                    open.remove(decided);
                }
                var allowed = mayStayOpen;
                if (stopped || open.isEmpty() || (allowed != null && allowed.containsAll(open))) {
                    return null;
                }
                Thread.sleep(pause);
            }
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
