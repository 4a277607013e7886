package dev.orderpipeline.worker.checkout;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;

/**
 * Has the connection pool close a session on which a write failed as read-only (SQLSTATE 25006), as it closes one
 * whose connection broke. A PostgreSQL session keeps the read-only default it started with, so once the database takes
 * writes again (a read-only switch undone, a failover completed) a pooled session would go on refusing them until it
 * ages out of the pool, half an hour by default, and the worker's redelivered poll with it. A new session reads the
 * database's current default.
 *
 * <p>Public, with a public constructor, because HikariCP instantiates it by name
 * ({@code spring.datasource.hikari.exception-override-class-name}).
 */
public final class ReadOnlySessionEviction implements SQLExceptionOverride {

    private static final String READ_ONLY_SQL_TRANSACTION = "25006";

    public ReadOnlySessionEviction() {}

    // java.lang's: the interface's nested Override enum hides it here
    @java.lang.Override
    public Override adjudicate(SQLException failure) {
        return READ_ONLY_SQL_TRANSACTION.equals(failure.getSQLState()) ? Override.MUST_EVICT : Override.CONTINUE_EVICT;
    }
}
