package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The faults of the pipeline's dependencies: the broker and PostgreSQL stopped and started again on the same data, and
 * the database faults that leave PostgreSQL up. Those change a setting for the whole database ({@code ALTER DATABASE
 * ... SET}), which only new sessions read, so the apps' sessions are terminated after setting and after resetting it;
 * the lab's own sessions ({@code orderpipeline-lab}) are spared.
 */
final class DependencyFaults {

    private DependencyFaults() {}

    /** {@code detail} is formatted with the seconds the stop took, the dependency was down and the start took. */
    private static Done downAndUp(
            FaultRun run, double start, Duration down, Runnable stop, Runnable startAgain, String detail) {
        stop.run();
        var stopped = run.clock().now();
        FaultRun.pause(down);
        var starting = run.clock().now();
        startAgain.run();
        return run.done(String.format(
                Locale.ROOT,
                detail,
                stopped - start,
                starting - stopped,
                run.clock().now() - starting));
    }

    static Done broker(FaultRun run, int number, double start) {
        var broker = run.stack()
                .broker()
                .orElseThrow(() -> new IllegalStateException("the stack uses an external Kafka cluster"));
        return downAndUp(
                run,
                start,
                run.settings().brokerDown(),
                broker::stop,
                broker::start,
                "controlled stop took %.1f s, down %.1f s, start (same data, same port) took %.1f s");
    }

    /** PostgreSQL stopped (fast shutdown: sessions cut, transactions rolled back), then started on the same data. */
    static Done database(FaultRun run, int number, double start) {
        var postgres = run.stack()
                .postgres()
                .filter(Postgres::isRestartable)
                .orElseThrow(() -> new IllegalStateException(
                        "the stack's PostgreSQL is not an embedded one with a data directory of its own"));
        try {
            return downAndUp(
                    run,
                    start,
                    run.settings().databaseDown(),
                    postgres::stopServer,
                    postgres::startServer,
                    "pg_ctl stop -m fast took %.1f s (sessions terminated, port closed), down %.1f s, start on the"
                            + " same data directory and port took %.1f s");
        } catch (RuntimeException ex) {
            // the later faults and the judge need it up
            if (!postgres.isServerRunning()) {
                try {
                    postgres.startServer();
                } catch (RuntimeException again) {
                    ex.addSuppressed(again);
                }
            }
            throw ex;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(DependencyFaults.class);

    private static final String TERMINATE_SESSIONS = """
            SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))
            FROM pg_stat_activity
            WHERE datname = current_database()
              AND pid <> pg_backend_pid()
              AND backend_type = 'client backend'
              AND application_name <> 'orderpipeline-lab'
            """;

    /** A read-only database after a failover to a standby not yet promoted: every writer gets SQLSTATE 25006. */
    private static final String READ_ONLY = alterDatabase("SET default_transaction_read_only = on");

    private static final String READ_WRITE = alterDatabase("RESET default_transaction_read_only");

    /** Short enough that the lab's {@link #LOCK_HOLD} times the apps' writers out (SQLSTATE 55P03). */
    private static final String SHORT_LOCK_TIMEOUT = alterDatabase("SET lock_timeout = ''100ms''");

    private static final String DEFAULT_LOCK_TIMEOUT = alterDatabase("RESET lock_timeout");

    /** The lab's session writes while the database is read-only and waits for its locks however long. */
    private static final String LAB_SESSION = """
            SET default_transaction_read_only = off;
            SET lock_timeout = 0
            """;

    /** The load's product rows, in the order the worker locks them (by id), so the lab never deadlocks with it. */
    private static final String LOCK_PRODUCTS = """
            SELECT id FROM product WHERE id = ANY(?) ORDER BY id FOR UPDATE
            """;

    private static final Duration LOCK_HOLD = Duration.ofMillis(300);

    /** Free between two holds, so some writers get through and the storm is not an outage. */
    private static final Duration LOCK_GAP = Duration.ofMillis(100);

    /** The apps' sessions terminated after setting and after resetting. */
    private record Outcome(long terminatedAtStart, long terminatedAtEnd) {}

    static Done readOnly(FaultRun run, int number, double start) {
        var length = run.settings().databaseFault();
        var outcome = withSetting(run.database(), READ_ONLY, READ_WRITE, () -> FaultRun.pause(length));
        return run.done(String.format(
                Locale.ROOT,
                "ALTER DATABASE ... SET default_transaction_read_only = on and %d sessions of the apps terminated;"
                        + " %.1f s later RESET and %d sessions terminated again",
                outcome.terminatedAtStart(),
                length.toMillis() / 1000.0,
                outcome.terminatedAtEnd()));
    }

    static Done lockTimeoutStorm(FaultRun run, int number, double start) {
        var database = run.database();
        var outcome = withSetting(
                database,
                SHORT_LOCK_TIMEOUT,
                DEFAULT_LOCK_TIMEOUT,
                () -> holdLocks(database, run.settings().databaseFault(), run.products()));
        return run.done(String.format(
                Locale.ROOT,
                "ALTER DATABASE ... SET lock_timeout = '100ms' and %d sessions of the apps terminated; the lab held"
                        + " the %d products' rows FOR UPDATE for %d ms at a time, %d ms apart; then RESET and %d"
                        + " sessions terminated again",
                outcome.terminatedAtStart(),
                run.products().size(),
                LOCK_HOLD.toMillis(),
                LOCK_GAP.toMillis(),
                outcome.terminatedAtEnd()));
    }

    private interface During {
        void run() throws SQLException;
    }

    /** The reset runs however the rest went: a database left read-only would fail every later fault and run. */
    private static Outcome withSetting(ChaosDatabase database, String set, String reset, During during) {
        long atStart = 0;
        @Nullable Exception failure = null;
        try {
            try (var connection = labSession(database)) {
                execute(connection, set);
                atStart = terminate(connection);
            }
            during.run();
        } catch (SQLException | RuntimeException ex) {
            failure = ex;
        }
        try (var connection = labSession(database)) {
            execute(connection, reset);
            var atEnd = terminate(connection);
            if (failure != null) {
                throw new IllegalStateException("the database fault failed: " + failure.getMessage(), failure);
            }
            return new Outcome(atStart, atEnd);
        } catch (SQLException ex) {
            log.error("Could not reset the database setting; reset it by hand", ex);
            if (failure != null) {
                ex.addSuppressed(failure);
            }
            throw new IllegalStateException("could not reset the database setting: " + ex.getMessage(), ex);
        }
    }

    private static void holdLocks(ChaosDatabase database, Duration length, List<UUID> products) throws SQLException {
        var deadline = System.nanoTime() + length.toNanos();
        try (var connection = labSession(database);
                var statement = connection.prepareStatement(LOCK_PRODUCTS)) {
            connection.setAutoCommit(false);
            statement.setArray(1, connection.createArrayOf("uuid", products.toArray(UUID[]::new)));
            while (System.nanoTime() - deadline < 0) {
                statement.executeQuery().close();
                FaultRun.pause(LOCK_HOLD);
                connection.commit();
                FaultRun.pause(LOCK_GAP);
            }
        }
    }

    private static Connection labSession(ChaosDatabase database) throws SQLException {
        var connection = database.connect();
        try {
            execute(connection, LAB_SESSION);
            return connection;
        } catch (SQLException ex) {
            connection.close();
            throw ex;
        }
    }

    /** {@code ALTER DATABASE} of the current database; {@code change} goes into a literal, its quotes doubled. */
    private static String alterDatabase(String change) {
        return """
                DO $$ BEGIN
                  EXECUTE format('ALTER DATABASE %%I %s', current_database());
                END $$
                """.formatted(change);
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long terminate(Connection connection) throws SQLException {
        try (var statement = connection.createStatement();
                var rows = statement.executeQuery(TERMINATE_SESSIONS)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
