package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.InvariantReport;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The database of the pipeline under test, read directly: the verdict on a run ({@link InvariantChecker}), how many
 * orders are still open, and PostgreSQL's own view of its load. The lab never writes to it.
 */
public final class Database {

    private static final String DEADLOCKS = """
            SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()
            """;

    /**
     * A backend reports its statistics when it goes idle, at most once a second: two reads this far apart that agree
     * have seen every report of a run that has ended.
     */
    private static final Duration STATISTICS_SETTLE = Duration.ofMillis(1_100);

    private static final String DURABILITY = """
            SELECT 'fsync ' || current_setting('fsync') || ', synchronous_commit ' || current_setting('synchronous_commit')
            """;

    private final String jdbcUrl;
    private final PGSimpleDataSource dataSource;
    private final InvariantChecker invariants;

    public Database(String jdbcUrl, String user, @Nullable String password) {
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
        }
        this.jdbcUrl = jdbcUrl;
        dataSource = new PGSimpleDataSource();
        dataSource.setURL(jdbcUrl);
        dataSource.setUser(user);
        if (password != null) {
            dataSource.setPassword(password);
        }
        dataSource.setApplicationName("orderpipeline-lab");
        dataSource.setConnectTimeout(5);
        invariants = new InvariantChecker(dataSource);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** The verdict on each of these products, in the map's order, against the stock it started with. */
    public List<InvariantReport> invariants(Map<UUID, Integer> initialStock) {
        return invariants.check(initialStock);
    }

    public long ordersNotFinal(Collection<UUID> productIds) {
        return invariants.ordersNotFinal(productIds);
    }

    public long cartsNotFinal(Collection<UUID> productIds) {
        return invariants.cartsNotFinal(productIds);
    }

    /**
     * Polls every {@code poll} until at most {@code leftOpen} orders are not final ({@code notFinal}: those of the
     * run's products, as {@link #ordersNotFinal} or {@link #cartsNotFinal} count them; the orders that stay CREATED for
     * good were never sent, never answered or refused at the door) or {@link System#nanoTime()} passed {@code
     * deadlineNanos}. Returns the orders not final last seen.
     */
    public long awaitFinal(LongSupplier notFinal, long leftOpen, long deadlineNanos, Duration poll) {
        while (true) {
            var open = notFinal.getAsLong();
            if (open <= leftOpen || System.nanoTime() - deadlineNanos > 0) {
                return open;
            }
            LockSupport.parkNanos(poll.toNanos());
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted while waiting for orders to be final");
            }
        }
    }

    /**
     * PostgreSQL's own count of the deadlocks it broke in this database ({@code pg_stat_database.deadlocks}), once it
     * has stopped changing (or after a few seconds): read before and after a run, the transactions the database
     * aborted as deadlock victims, whatever the application did with them afterwards.
     */
    public long deadlocks() {
        var last = query(DEADLOCKS, "pg_stat_database.deadlocks");
        for (var reads = 1; reads < 6; reads++) {
            LockSupport.parkNanos(STATISTICS_SETTLE.toNanos());
            var now = query(DEADLOCKS, "pg_stat_database.deadlocks");
            if (now.equals(last)) {
                break;
            }
            last = now;
        }
        return Long.parseLong(last);
    }

    /** A connection of its own, for a sampler that queries every few hundred milliseconds. */
    public Connection connect() throws SQLException {
        return dataSource.getConnection();
    }

    /** The pid of the server process serving this connection; its parent is the postmaster. */
    public static long backendPid(Connection connection) throws SQLException {
        return Long.parseLong(query(connection, "SELECT pg_backend_pid()"));
    }

    public String serverVersion() {
        return query("SHOW server_version", "the server version");
    }

    /**
     * Whether a commit is on disk when it returns, as the server is set: {@code fsync} (off: the WAL is never
     * flushed, so no commit is durable however the session is set) and its default {@code synchronous_commit}, which
     * the apps' sessions may set otherwise (the target's appArguments say so).
     */
    public String durability() {
        return query(DURABILITY, "the server's fsync and synchronous_commit");
    }

    /** The first column of the first row {@code sql} returns, as text. */
    private String query(String sql, String what) {
        try (var connection = dataSource.getConnection()) {
            return query(connection, sql);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read " + what, ex);
        }
    }

    /** Whether the server runs on this machine, so its processes are ours to watch in {@code /proc}. */
    public boolean isLocal() {
        var host = URI.create(jdbcUrl.substring("jdbc:".length())).getHost();
        if (host == null) {
            // jdbc:postgresql:dbname or ///dbname: the driver's default host, localhost
            return true;
        }
        try {
            var address = InetAddress.getByName(host);
            return address.isLoopbackAddress() || address.isAnyLocalAddress();
        } catch (UnknownHostException ex) {
            return false;
        }
    }

    private static String query(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
