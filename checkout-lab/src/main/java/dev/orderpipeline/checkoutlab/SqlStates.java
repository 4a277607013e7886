package dev.orderpipeline.checkoutlab;

import java.sql.SQLException;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** PostgreSQL's answers that mean "run the whole transaction again", read from the SQLSTATE itself. */
final class SqlStates {

    static final String SERIALIZATION_FAILURE = "40001";
    static final String DEADLOCK_DETECTED = "40P01";

    private static final Set<String> RETRYABLE = Set.of(SERIALIZATION_FAILURE, DEADLOCK_DETECTED);

    private SqlStates() {}

    /** Whether a failure (Spring's translation or the driver's own) is a serialization failure or a deadlock. */
    static boolean isRetryable(Throwable failure) {
        var state = sqlState(failure);
        return state != null && RETRYABLE.contains(state);
    }

    /** Whether a failure is PostgreSQL aborting the transaction as the victim of a deadlock. */
    static boolean isDeadlock(Throwable failure) {
        return DEADLOCK_DETECTED.equals(sqlState(failure));
    }

    /** The SQLSTATE of the first {@link SQLException} in the cause chain, if any. */
    static @Nullable String sqlState(Throwable failure) {
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (current instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return null;
    }
}
