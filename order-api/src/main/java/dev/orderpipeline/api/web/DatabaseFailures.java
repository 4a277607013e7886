package dev.orderpipeline.api.web;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.dao.TypeMismatchDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.TransactionTimedOutException;

/**
 * Tells a database that is unavailable now (the same request may well succeed later, so 503) from a bug (our SQL
 * or our use of the driver is wrong, so 500). Spring's exception types say it for most failures; PostgreSQL's SQL
 * state says it for those Spring leaves uncategorized, such as a write refused by a read-only database (a standby
 * promoted late, a database switched to read-only for maintenance).
 */
public final class DatabaseFailures {

    /**
     * SQL state classes of an unavailable server: 08 connection exception, 53 insufficient resources (too many
     * connections, out of memory or disk), 57 operator intervention (shutdown, cancelled or terminated backend,
     * statement timeout).
     */
    private static final Set<String> UNAVAILABLE_CLASSES = Set.of("08", "53", "57");

    /**
     * Single SQL states that a retry can get past: serialization failure, deadlock, lock not available, and a write
     * in a read-only transaction (the server or the database is read-only for now).
     */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("40001", "40P01", "55P03", "25006");

    /**
     * Whether a failure of a data access says that our SQL or our use of the API is wrong, whatever the database's
     * state: a checkout answers 503 for any other failure of its database work, and a 500 for these.
     */
    public static boolean isMisuse(RuntimeException failure) {
        return failure instanceof InvalidDataAccessResourceUsageException
                || failure instanceof InvalidDataAccessApiUsageException
                || failure instanceof IncorrectResultSizeDataAccessException
                || failure instanceof TypeMismatchDataAccessException;
    }

    /**
     * Logs a database failure as one line at WARN, {@code message} followed by the failure's deepest cause (its type
     * and message), and the whole stack trace at DEBUG. When the pool runs dry every request waiting for a connection
     * fails at once, and a stack trace of about a hundred frames for each cost an overloaded API its CPU and heap.
     */
    public static void logFailure(Logger log, Throwable failure, String message, Object... arguments) {
        var warning = log.atWarn().setMessage(message + ": {}");
        for (var argument : arguments) {
            warning = warning.addArgument(argument);
        }
        // as text: a Throwable last among the arguments would be taken for the cause, and its stack trace printed
        warning.addArgument(NestedExceptionUtils.getMostSpecificCause(failure).toString())
                .log();
        var trace = log.atDebug().setMessage(message).setCause(failure);
        for (var argument : arguments) {
            trace = trace.addArgument(argument);
        }
        trace.log();
    }

    /** How deep a chain of causes is followed; real ones are a handful deep, a cycle would be endless. */
    private static final int MAX_CAUSES = 32;

    private DatabaseFailures() {}

    /** Whether {@code failure}, or what caused it, says the database cannot answer now rather than that we erred. */
    static boolean isUnavailable(Throwable failure) {
        var depth = 0;
        for (Throwable current = failure; current != null && depth < MAX_CAUSES; current = next(current), depth++) {
            if (isUnavailableType(current)) {
                return true;
            }
            if (current instanceof SQLException sql && isUnavailableState(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isUnavailableType(Throwable failure) {
        return failure instanceof TransientDataAccessException // query timeout, lock and serialization failures
                || failure instanceof DataAccessResourceFailureException // no connection (pool timeout included)
                || failure instanceof RecoverableDataAccessException
                || failure instanceof CannotCreateTransactionException // no connection to begin with
                || failure instanceof TransactionSystemException // commit or rollback failed in the database
                || failure instanceof TransactionTimedOutException
                || failure instanceof SQLTransientException
                || failure instanceof SQLRecoverableException;
    }

    private static boolean isUnavailableState(@Nullable String state) {
        return state != null
                && state.length() == 5
                && (UNAVAILABLE_STATES.contains(state) || UNAVAILABLE_CLASSES.contains(state.substring(0, 2)));
    }

    private static @Nullable Throwable next(Throwable failure) {
        var cause = failure.getCause();
        return cause == failure ? null : cause;
    }
}
