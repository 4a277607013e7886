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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    private final DataSource dataSource;
    private final Duration pause;
    private final Map<UUID, Long> seen = new ConcurrentHashMap<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread thread;

    /** The carts that may stay undecided for the watch to end: unknown (null) until every checkout was answered. */
    private volatile @Nullable Set<UUID> mayStayOpen;

    private volatile boolean stopped;
    private volatile @Nullable RuntimeException failure;

    private DecisionWatch(DataSource dataSource, Collection<UUID> carts, Duration pause) {
        this.dataSource = dataSource;
        this.pause = pause;
        var open = new HashSet<>(carts);
        thread = Thread.ofVirtual().name("lab-carts-decision-watch").unstarted(() -> poll(open));
    }

    /** Starts polling now, on one connection, every {@code pause}. */
    static DecisionWatch start(DataSource dataSource, Collection<UUID> carts, Duration pause) {
        var watch = new DecisionWatch(dataSource, carts, pause);
        watch.thread.start();
        return watch;
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
            done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        close();
        var failed = failure;
        if (failed != null) {
            throw failed;
        }
        return Map.copyOf(seen);
    }

    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private void poll(Set<UUID> open) {
        try (var connection = dataSource.getConnection()) {
            while (true) {
                var now = System.nanoTime();
                for (var decided : decided(connection, open)) {
                    seen.putIfAbsent(decided, now);
                    open.remove(decided);
                }
                if (finished(open)) {
                    return;
                }
                Thread.sleep(pause);
            }
        } catch (SQLException ex) {
            failure = new IllegalStateException("could not read which carts are decided", ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            failure = new IllegalStateException("interrupted while waiting for the carts' decisions", ex);
        } catch (RuntimeException ex) {
            failure = ex;
        } finally {
            done.countDown();
        }
    }

    private boolean finished(Set<UUID> stillOpen) {
        var allowed = mayStayOpen;
        return stopped || stillOpen.isEmpty() || (allowed != null && allowed.containsAll(stillOpen));
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
