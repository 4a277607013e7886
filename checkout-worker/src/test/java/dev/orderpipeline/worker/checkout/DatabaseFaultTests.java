package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.Postgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;

/**
 * Faults of the database, each produced for real on the test database while valid commands wait: not one of them is
 * dead-lettered, readiness says the worker cannot write while it lasts, and every command is decided once it ends.
 */
class DatabaseFaultTests extends WorkerIntegrationTest {

    private static final String TERMINATE_OTHER_SESSIONS = """
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND backend_type = 'client backend'
              AND application_name <> 'fault-injector'
            """;

    // A statement-level trigger on the idempotency table, which every applying transaction writes: the database
    // raises the given SQLSTATE exactly as it would raise its own.
    private static final String INSTALL_FAULT = """
            CREATE FUNCTION injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'injected fault %%' , TG_ARGV[0] USING ERRCODE = TG_ARGV[0];
            END $$;
            CREATE TRIGGER injected_fault BEFORE INSERT ON processed_command
                FOR EACH STATEMENT EXECUTE FUNCTION injected_fault('%s');
            """;

    private static final String REMOVE_FAULT = """
            DROP TRIGGER IF EXISTS injected_fault ON processed_command;
            DROP FUNCTION IF EXISTS injected_fault();
            """;

    @Autowired
    DatabaseWritesHealthIndicator writes;

    @Autowired
    DataSource dataSource;

    private Connection admin;
    private String database;

    @BeforeEach
    void connectAsAdmin() throws SQLException {
        // opened before any fault, so its session is never read-only
        admin = faultInjector();
        database = query("SELECT current_database()");
    }

    @AfterEach
    void undoFaults() throws SQLException {
        execute(REMOVE_FAULT);
        execute("ALTER DATABASE " + database + " RESET default_transaction_read_only");
        admin.close();
        // sessions opened under a fault keep its defaults
        evictThePoolsConnections();
    }

    @ParameterizedTest(name = "SQLSTATE {0}")
    @ValueSource(
            strings = {
                "40001", // serialization_failure
                "40P01", // deadlock_detected
                "53100", // disk_full
                "53200", // out_of_memory
                "53300", // too_many_connections
                "55P03", // lock_not_available
                "57P01", // admin_shutdown
                "57P02", // crash_shutdown
                "57P03", // cannot_connect_now
                "58030", // io_error
                "XX000", // internal_error
                "25006", // read_only_sql_transaction
                "42883" // undefined_function
            })
    void waitsOutAFailureTheDatabaseRaisesAndDeadLettersNothing(String sqlState) throws SQLException {
        var product = createProduct(10, "2.00");
        var orders = createOrders(product, 4, 1);

        execute(INSTALL_FAULT.formatted(sqlState));
        publish(commandsFor(orders));
        awaitWritesDown("injected fault " + sqlState);
        assertThat(decidedCount(orders)).isZero();
        execute(REMOVE_FAULT);

        assertAllCompletedAndNoneDeadLettered(product, 10, orders);
    }

    @Test
    void waitsOutADatabaseSwitchedReadOnly() throws SQLException {
        var product = createProduct(10, "2.00");
        var orders = createOrders(product, 4, 1);
        // read before the fault: terminating the worker's sessions also ends the pooled one the test reads with
        var commands = commandsFor(orders);

        execute("ALTER DATABASE " + database + " SET default_transaction_read_only = on");
        terminateTheWorkersSessions();
        publish(commands);
        awaitWritesDown("read-only transaction");
        // the database's default changes back; the sessions the worker opened meanwhile are left as they are: the
        // worker renews them after a read-only failure
        execute("ALTER DATABASE " + database + " RESET default_transaction_read_only");

        assertAllCompletedAndNoneDeadLettered(product, 10, orders);
    }

    @Test
    void reportsAnIdleWorkerNotReadyWhileTheDatabaseIsReadOnly() throws SQLException {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> writes.health().getStatus().equals(Status.UP));
        execute("ALTER DATABASE " + database + " SET default_transaction_read_only = on");
        assertThat(writes.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(writes.health().getDetails()).containsEntry("readOnly", true);
        execute("ALTER DATABASE " + database + " RESET default_transaction_read_only");
        assertThat(writes.health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void sessionsRunWithTheBoundsOfTheWorkersConfiguration() {
        // startup options of the pool's sessions: they outrank the database's own defaults
        assertThat(setting("lock_timeout")).isEqualTo("5s");
        assertThat(setting("statement_timeout")).isEqualTo("30s");
        assertThat(setting("idle_in_transaction_session_timeout")).isEqualTo("10s");
    }

    @Test
    void waitsOutAProductRowHeldByAnotherSessionPastItsLockTimeout() throws SQLException {
        var product = createProduct(10, "2.00");
        var orders = createOrders(product, 4, 1);

        // the worker's own lock_timeout, not one given for the test: the batch fails on it (55P03) as transient
        try (var holder = faultInjector()) {
            holder.setAutoCommit(false);
            try (var lock = holder.prepareStatement("SELECT stock FROM product WHERE id = ? FOR UPDATE")) {
                lock.setObject(1, product);
                lock.executeQuery().close();
            }
            publish(commandsFor(orders));
            awaitWritesDown("lock timeout");
            assertThat(decidedCount(orders)).isZero();
            holder.rollback();
        }

        assertAllCompletedAndNoneDeadLettered(product, 10, orders);
        // decided once: one idempotency row per command, its outcome the first decision's
        assertThat(jdbc.sql("SELECT count(*) FROM processed_command WHERE order_id = ANY(:ids)")
                        .param("ids", orders.toArray(UUID[]::new))
                        .query(Long.class)
                        .single())
                .isEqualTo(orders.size());
    }

    @Test
    void waitsOutATableThatIsNotThereYet() throws SQLException {
        var product = createProduct(10, "2.00");
        var orders = createOrders(product, 4, 1);

        execute("ALTER TABLE processed_command RENAME TO processed_command_away");
        try {
            publish(commandsFor(orders));
            awaitWritesDown("relation \"processed_command\" does not exist");
        } finally {
            execute("ALTER TABLE processed_command_away RENAME TO processed_command");
        }

        assertAllCompletedAndNoneDeadLettered(product, 10, orders);
    }

    @Test
    void waitsOutItsSessionsBeingTerminatedAgainAndAgain() throws Exception {
        var product = createProduct(40, "2.00");
        var orders = createOrders(product, 30, 1);
        var commands = commandsFor(orders);
        var terminated = new AtomicInteger();

        try (var killer = Executors.newSingleThreadScheduledExecutor();
                var killerSession = faultInjector()) {
            killer.scheduleWithFixedDelay(
                    () -> {
                        try (var statement = killerSession.createStatement();
                                var row = statement.executeQuery(TERMINATE_OTHER_SESSIONS)) {
                            row.next();
                            terminated.addAndGet(row.getInt(1));
                        } catch (SQLException ex) {
                            throw new IllegalStateException(ex);
                        }
                    },
                    0,
                    20,
                    TimeUnit.MILLISECONDS);
            // one command at a time, so that applying overlaps the terminations again and again
            for (var command : commands) {
                publish(List.of(command));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> terminated.get() >= 10);
            killer.shutdownNow();
        }
        evictThePoolsConnections();

        assertAllCompletedAndNoneDeadLettered(product, 40, orders);
    }

    private void assertAllCompletedAndNoneDeadLettered(UUID product, int initialStock, List<UUID> orders) {
        awaitDecided(orders);
        assertThat(statuses(orders)).containsOnly("COMPLETED");
        assertThat(stock(product)).isEqualTo(initialStock - orders.size());
        assertThat(payments(orders)).extracting(Payments::count).containsOnly(1);
        try (var dlt = new TopicReader(broker, Topics.CHECKOUT_COMMANDS_DLT)) {
            assertThat(dlt.records()).noneMatch(record -> product.toString().equals(record.key()));
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> writes.health().getStatus().equals(Status.UP));
    }

    /** Waits until readiness reports the failure the worker met: proof that the fault was in its way. */
    private void awaitWritesDown(String failure) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> {
                    var health = writes.health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(String.valueOf(health.getDetails().get("lastFailure")))
                            .contains(failure);
                });
    }

    /** So that new sessions read the database's new defaults; the test's own queries get fresh ones too. */
    private void terminateTheWorkersSessions() throws SQLException {
        Timestamp changed;
        try (var statement = admin.createStatement();
                var row = statement.executeQuery("SELECT clock_timestamp()")) {
            row.next();
            changed = row.getTimestamp(1);
        }
        // A session still starting when the defaults changed may have read the old ones before it is listed in
        // pg_stat_activity, and would take the worker's writes as if nothing had changed: the sessions that began
        // before the change are ended until none has been left for a while; the ones begun since read the new defaults.
        var since = System.nanoTime();
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> terminateSessionsStartedBefore(changed) == 0
                        && Duration.ofNanos(System.nanoTime() - since).compareTo(SESSION_START) >= 0);
        evictThePoolsConnections();
    }

    /** Longer than a session takes from reading the database's defaults to being listed in pg_stat_activity. */
    private static final Duration SESSION_START = Duration.ofSeconds(1);

    private int terminateSessionsStartedBefore(Timestamp time) throws SQLException {
        try (var statement = admin.prepareStatement(TERMINATE_OTHER_SESSIONS + " AND backend_start < ?")) {
            statement.setTimestamp(1, time);
            try (var row = statement.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }

    private void evictThePoolsConnections() {
        var pool = ((HikariDataSource) dataSource).getHikariPoolMXBean();
        if (pool != null) {
            pool.softEvictConnections();
        }
    }

    /** A session of the test's own, which no fault terminates. */
    private static Connection faultInjector() throws SQLException {
        var session = Postgres.forTests().connect(DATABASE_URL);
        session.setClientInfo("ApplicationName", "fault-injector");
        return session;
    }

    private void execute(String sql) throws SQLException {
        try (var statement = admin.createStatement()) {
            statement.execute(sql);
        }
    }

    private String setting(String name) {
        return jdbc.sql("SELECT current_setting(:name)")
                .param("name", name)
                .query(String.class)
                .single();
    }

    private String query(String sql) throws SQLException {
        try (var statement = admin.createStatement();
                var row = statement.executeQuery(sql)) {
            row.next();
            return row.getString(1);
        }
    }
}
