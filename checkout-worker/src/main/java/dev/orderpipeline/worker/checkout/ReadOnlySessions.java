package dev.orderpipeline.worker.checkout;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Renews the connection pool's sessions once a write was refused as read-only (SQLSTATE 25006). A PostgreSQL session
 * keeps the read-only default it started with, so once the database takes writes again (a read-only switch undone, a
 * failover completed) a pooled session would go on refusing them until it ages out of the pool, half an hour by
 * default, and the redelivered poll with it. A new session reads the database's current default.
 *
 * <p>After the failed transaction has rolled back, not from inside the pool when the statement fails: that would
 * close the session under the transaction, whose rollback would then fail too and hide the statement's SQLSTATE from
 * {@link FailureKind}.
 */
@Component
class ReadOnlySessions {

    private static final Logger log = LoggerFactory.getLogger(ReadOnlySessions.class);

    private static final String READ_ONLY_SQL_TRANSACTION = "25006";

    private final DataSource dataSource;

    ReadOnlySessions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Called with a failure the poll is redelivered for. */
    void afterFailure(Throwable failure) {
        if (!READ_ONLY_SQL_TRANSACTION.equals(FailureKind.sqlState(failure))) {
            return;
        }
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)) {
                var pool = dataSource.unwrap(HikariDataSource.class).getHikariPoolMXBean();
                if (pool != null) {
                    // idle sessions close now, sessions in use when they come back
                    pool.softEvictConnections();
                    log.info("The database refused a write as read-only; the pool's sessions are renewed");
                }
            }
        } catch (SQLException ex) {
            log.warn("Could not renew the pool's sessions after a read-only failure", ex);
        }
    }
}
