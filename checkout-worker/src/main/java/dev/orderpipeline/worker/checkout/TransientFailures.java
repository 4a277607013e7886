package dev.orderpipeline.worker.checkout;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells failures that retrying the same work can cure (the database was unreachable, restarting, or picked this
 * transaction as a serialization or deadlock victim) from those it cannot (a bug, or data the schema refuses).
 */
final class TransientFailures {

    /** serialization_failure, deadlock_detected. */
    private static final Set<String> RETRYABLE_SQL_STATES = Set.of("40001", "40P01");

    /** connection_exception (08) and operator intervention such as admin shutdown or a terminated backend (57). */
    private static final Set<String> RETRYABLE_SQL_STATE_CLASSES = Set.of("08", "57");

    private static final int MAX_CAUSE_DEPTH = 32;

    private TransientFailures() {}

    static boolean isTransient(Throwable failure) {
        @Nullable Throwable current = failure;
        for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++, current = current.getCause()) {
            if (current instanceof TransientDataAccessException
                    || current instanceof RecoverableDataAccessException
                    // includes CannotGetJdbcConnectionException
                    || current instanceof DataAccessResourceFailureException
                    || current instanceof CannotCreateTransactionException
                    // the commit or rollback itself failed (e.g. on a terminated connection, whose error carries no
                    // SQLState): the transaction is gone or its outcome unknown, and redelivering the poll is safe
                    // because the idempotency rows make whatever did commit read as duplicates
                    || current instanceof TransactionSystemException
                    || current instanceof SQLTransientException
                    || current instanceof SQLRecoverableException) {
                return true;
            }
            if (current instanceof SQLException sql && isRetryable(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isRetryable(@Nullable String sqlState) {
        return sqlState != null
                && sqlState.length() == 5
                && (RETRYABLE_SQL_STATES.contains(sqlState)
                        || RETRYABLE_SQL_STATE_CLASSES.contains(sqlState.substring(0, 2)));
    }
}
