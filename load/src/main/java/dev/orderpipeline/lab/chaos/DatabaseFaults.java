package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.pipeline.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database faults that leave PostgreSQL up: a setting changed for the whole database ({@code ALTER DATABASE ...
 * SET}), which only new sessions read, so the apps' sessions are terminated right after and their pools reconnect
 * under it; at the end the setting is reset and the sessions terminated again. The lab's own sessions (application
 * name {@code orderpipeline-lab}) are spared and override the setting where they must write or wait.
 */
final class DatabaseFaults {

    private static final Logger log = LoggerFactory.getLogger(DatabaseFaults.class);

    /** A read-only database after a failover to a standby not yet promoted: every writer gets SQLSTATE 25006. */
    private static final String READ_ONLY = """
            DO $$ BEGIN
              EXECUTE format('ALTER DATABASE %I SET default_transaction_read_only = on', current_database());
            END $$
            """;

    private static final String READ_WRITE = """
            DO $$ BEGIN
              EXECUTE format('ALTER DATABASE %I RESET default_transaction_read_only', current_database());
            END $$
            """;

    /** Short enough that a lock held by the lab for {@link #LOCK_HOLD} times the apps' writers out (SQLSTATE 55P03). */
    private static final String SHORT_LOCK_TIMEOUT = """
            DO $$ BEGIN
              EXECUTE format('ALTER DATABASE %I SET lock_timeout = ''100ms''', current_database());
            END $$
            """;

    private static final String DEFAULT_LOCK_TIMEOUT = """
            DO $$ BEGIN
              EXECUTE format('ALTER DATABASE %I RESET lock_timeout', current_database());
            END $$
            """;

    /**
     * The lab's session must be able to write (ALTER DATABASE) while the database defaults to read-only, and wait
     * for the rows it locks however long the apps hold them.
     */
    private static final String LAB_SESSION = """
            SET default_transaction_read_only = off;
            SET lock_timeout = 0
            """;

    /** The load's product rows, in the order the worker locks them (by id), so the lab never deadlocks with it. */
    private static final String LOCK_PRODUCTS = """
            SELECT id FROM product WHERE id = ANY(?) ORDER BY id FOR UPDATE
            """;

    /** How long the lab holds the product rows each time: three times the apps' lock timeout. */
    static final Duration LOCK_HOLD = Duration.ofMillis(300);

    /** The rows are free this long between two holds, so some writers get through and the storm is not an outage. */
    static final Duration LOCK_GAP = Duration.ofMillis(100);

    /**
     * What a fault did.
     *
     * @param terminatedAtStart the apps' sessions terminated when the setting was made
     * @param terminatedAtEnd the apps' sessions terminated when it was reset
     * @param locks the lab's holds on the product rows (none for the read-only fault)
     */
    record Outcome(long terminatedAtStart, long terminatedAtEnd, Locks locks) {}

    /**
     * @param holds how often the lab held the product rows
     * @param longestWaitMillis the longest the lab waited for them, behind the apps' transactions
     */
    record Locks(long holds, long longestWaitMillis) {

        static final Locks NONE = new Locks(0, 0);
    }

    private final Database database;

    DatabaseFaults(Database database) {
        this.database = database;
    }

    /** The database read-only for the apps for {@code length}, then writable again. */
    Outcome readOnly(Duration length) {
        return withSetting(READ_ONLY, READ_WRITE, () -> {
            FaultRun.pause(length);
            return Locks.NONE;
        });
    }

    /** A short lock timeout for the apps for {@code length}, while the lab keeps taking the products' rows. */
    Outcome lockTimeoutStorm(Duration length, List<UUID> products) {
        return withSetting(SHORT_LOCK_TIMEOUT, DEFAULT_LOCK_TIMEOUT, () -> holdLocks(length, products));
    }

    /** What goes on while the setting holds. */
    private interface During {
        Locks run() throws SQLException;
    }

    /**
     * Sets, terminates, lets {@code during} run, then resets and terminates again. The reset runs however the rest
     * went: a database left read-only would fail every later fault and run.
     */
    private Outcome withSetting(String set, String reset, During during) {
        long atStart;
        Locks locks;
        try {
            try (var connection = labSession()) {
                execute(connection, set);
                atStart = terminate(connection);
            }
            locks = during.run();
        } catch (SQLException | RuntimeException ex) {
            resetQuietly(reset, ex);
            throw new IllegalStateException("the database fault failed: " + ex.getMessage(), ex);
        }
        try (var connection = labSession()) {
            execute(connection, reset);
            return new Outcome(atStart, terminate(connection), locks);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not reset the database setting: " + ex.getMessage(), ex);
        }
    }

    /** Holds the product rows for {@link #LOCK_HOLD}, frees them for {@link #LOCK_GAP}, over and over. */
    private Locks holdLocks(Duration length, List<UUID> products) throws SQLException {
        var deadline = System.nanoTime() + length.toNanos();
        long holds = 0;
        long longestWait = 0;
        try (var connection = labSession();
                var statement = connection.prepareStatement(LOCK_PRODUCTS)) {
            connection.setAutoCommit(false);
            statement.setArray(1, connection.createArrayOf("uuid", products.toArray(UUID[]::new)));
            while (System.nanoTime() - deadline < 0) {
                var asked = System.nanoTime();
                statement.executeQuery().close();
                longestWait = Math.max(
                        longestWait, Duration.ofNanos(System.nanoTime() - asked).toMillis());
                holds++;
                FaultRun.pause(LOCK_HOLD);
                connection.commit();
                FaultRun.pause(LOCK_GAP);
            }
        }
        return new Locks(holds, longestWait);
    }

    private Connection labSession() throws SQLException {
        var connection = database.connect();
        try {
            execute(connection, LAB_SESSION);
            return connection;
        } catch (SQLException ex) {
            connection.close();
            throw ex;
        }
    }

    private void resetQuietly(String reset, Exception cause) {
        try (var connection = labSession()) {
            execute(connection, reset);
            terminate(connection);
        } catch (SQLException | RuntimeException ex) {
            log.error("Could not reset the database setting after a failed fault; reset it by hand", ex);
            cause.addSuppressed(ex);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long terminate(Connection connection) throws SQLException {
        try (var statement = connection.createStatement();
                var rows = statement.executeQuery(ChaosDatabase.TERMINATE_SESSIONS)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
