package dev.orderpipeline.worker.checkout;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionSystemException;

/**
 * The {@code databaseWrites} health component, in the readiness group beside {@code db}: DOWN while the database
 * does not take this worker's writes. {@code db} only asks whether a connection answers a query, which a read-only
 * database (a failover to a replica, or one switched read-only) still does while every checkout waits.
 *
 * <p>Two signals. The last write outcome: after a transient failure to apply a poll it is DOWN until a transaction
 * of the worker commits again, whatever the failure was (read-only, a missing table, a lock timeout, a bug); the
 * failed poll is redelivered with back-off, so that commit comes as soon as the database takes it. And, while the
 * writes go well or there were none, a cheap probe on a session of its own, so that an idle worker reports a
 * read-only database too: whether the server is in recovery and whether a new transaction would be read-only. A new
 * session each time, never a pooled one, because a pooled session keeps the read-only default it started with after
 * the database's has changed. Connecting and querying are bounded by {@value #PROBE_TIMEOUT_SECONDS} s each, so no
 * probe holds a thread for long.
 */
@Component("databaseWritesHealthIndicator")
class DatabaseWritesHealthIndicator implements HealthIndicator {

    static final int PROBE_TIMEOUT_SECONDS = 2;

    private static final String PROBE = """
            SELECT pg_is_in_recovery() AS in_recovery,
                   current_setting('transaction_read_only') = 'on' AS read_only
            """;

    private final JdbcConnectionDetails connection;
    private final AtomicReference<@Nullable WriteFailure> lastFailure = new AtomicReference<>();

    DatabaseWritesHealthIndicator(JdbcConnectionDetails connection) {
        this.connection = connection;
    }

    /** A transaction of the worker committed: the database takes its writes. */
    void committed() {
        if (lastFailure.get() != null) {
            lastFailure.set(null);
        }
    }

    /** Applying a poll failed for a reason the worker redelivers it for. */
    void failed(Throwable failure) {
        // The statement's failure, not the rollback's that replaced it when the pool closed the session ("Connection
        // is closed"), and the driver's own line ("ERROR: cannot execute INSERT in a read-only transaction").
        var statementFailure =
                failure instanceof TransactionSystemException rollback ? rollback.getOriginalException() : failure;
        var reason = PoisonCommandException.describe(
                NestedExceptionUtils.getMostSpecificCause(statementFailure == null ? failure : statementFailure));
        lastFailure.set(new WriteFailure(Instant.now(), reason));
    }

    @Override
    public Health health() {
        var failure = lastFailure.get();
        if (failure != null) {
            return Health.down()
                    .withDetail("lastFailure", failure.reason())
                    .withDetail("since", failure.at().toString())
                    .build();
        }
        return probe();
    }

    private Health probe() {
        var properties = new Properties();
        var username = connection.getUsername();
        var password = connection.getPassword();
        if (username != null) {
            properties.setProperty("user", username);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("connectTimeout", String.valueOf(PROBE_TIMEOUT_SECONDS));
        properties.setProperty("socketTimeout", String.valueOf(PROBE_TIMEOUT_SECONDS * 2));
        properties.setProperty("ApplicationName", "checkout-worker health");
        try (var session = DriverManager.getConnection(connection.getJdbcUrl(), properties);
                var statement = session.createStatement()) {
            statement.setQueryTimeout(PROBE_TIMEOUT_SECONDS);
            try (var row = statement.executeQuery(PROBE)) {
                row.next();
                var inRecovery = row.getBoolean("in_recovery");
                var readOnly = row.getBoolean("read_only");
                return (inRecovery || readOnly ? Health.down() : Health.up())
                        .withDetail("inRecovery", inRecovery)
                        .withDetail("readOnly", readOnly)
                        .build();
            }
        } catch (SQLException ex) {
            return Health.down(ex).build();
        }
    }

    private record WriteFailure(Instant at, String reason) {}
}
