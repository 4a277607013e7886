package dev.orderpipeline.worker.checkout;

import java.sql.SQLException;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The worker's one failure policy: whose fault it is that commands could not be applied, and so what becomes of them.
 *
 * <p>A record is dead-lettered only when the record itself is at fault. The listener and the applier catch most of
 * those without any failure: the record is unreadable, its command id header is not its command's, its order does
 * not exist or does not match it. What is left is a statement the database refuses for what a command carries, a
 * data exception or a constraint violation; a batch that fails so is applied one command per transaction, and only
 * the command that fails so on its own is dead-lettered.
 *
 * <p>Every other failure is the database's, the connection's or the worker's, and a valid command must never pay for
 * it: the poll is redelivered from the same offsets with back-off, nothing skipped or reordered, until the database
 * takes it. By SQLSTATE (the one nearest the surface of the failure):
 *
 * <ul>
 *   <li>class 22 (data_exception) and 23 (integrity_constraint_violation): {@link #RECORD_AT_FAULT};
 *   <li>class 08 (connection_exception): {@link #TRANSIENT};
 *   <li>class 25 (invalid_transaction_state), 25006 read_only_sql_transaction above all (a failover, or the database
 *       switched read-only), also an aborted or idle-timed-out transaction: {@link #TRANSIENT};
 *   <li>class 40 (transaction_rollback), 40001 serialization_failure and 40P01 deadlock_detected above all:
 *       {@link #TRANSIENT};
 *   <li>42P01 undefined_table, 42703 undefined_column, 42883 undefined_function: the schema this worker needs is not
 *       deployed yet, as during a rolling deploy: {@link #TRANSIENT};
 *   <li>class 53 (insufficient_resources: disk full, out of memory, too many connections): {@link #TRANSIENT};
 *   <li>class 55 (object_not_in_prerequisite_state), 55P03 lock_not_available above all: {@link #TRANSIENT};
 *   <li>class 57 (operator_intervention: query_canceled, admin_shutdown, crash_shutdown, cannot_connect_now):
 *       {@link #TRANSIENT};
 *   <li>class 58 (system_error) and XX (internal_error, data_corrupted, index_corrupted): {@link #TRANSIENT};
 *   <li>no SQLSTATE: a failed commit or rollback (a terminated session's "Connection is closed"), no connection from
 *       the pool, a closed connection: {@link #TRANSIENT};
 *   <li>anything else, a SQLSTATE not named here (a syntax error, a missing grant) or no SQL failure at all (a bug in
 *       the worker): {@link #TRANSIENT} as well.
 * </ul>
 *
 * <p>The last rule is the deliberate one. A failure nobody foresaw is not proof that the record is at fault, and the
 * two mistakes cost very differently: a valid command dead-lettered is a checkout the client was told was accepted
 * and that never happens, while a poll redelivered only waits, visibly (consumer lag, the {@code databaseWrites}
 * readiness component, a warning with the failure at every retry), until the database or a fix is back; then every
 * command is decided, in order, and whatever had committed reads as a duplicate.
 */
public enum FailureKind {

    /** The database, the connection or the worker failed: redeliver the poll, with back-off. */
    TRANSIENT,

    /** The command is refused for what it carries: dead-letter it, once pinned on one command. */
    RECORD_AT_FAULT;

    /** data_exception, integrity_constraint_violation. */
    private static final Set<String> RECORD_SQL_STATE_CLASSES = Set.of("22", "23");

    private static final int MAX_CAUSE_DEPTH = 32;

    public static FailureKind of(Throwable failure) {
        var sqlState = sqlState(failure);
        return sqlState != null && RECORD_SQL_STATE_CLASSES.contains(sqlState.substring(0, 2))
                ? RECORD_AT_FAULT
                : TRANSIENT;
    }

    /**
     * The SQLSTATE nearest the surface: the statement's own, or the failed commit's or rollback's when that failure
     * replaced the statement's (then the outcome is a connection's, whatever the statement did).
     */
    static @Nullable String sqlState(Throwable failure) {
        @Nullable Throwable current = failure;
        for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++, current = current.getCause()) {
            if (current instanceof SQLException sql) {
                // a failure without a SQLSTATE of its own (the driver's batch failure) names the statement's next
                for (@Nullable SQLException each = sql; each != null; each = each.getNextException()) {
                    var state = each.getSQLState();
                    if (state != null && state.length() == 5) {
                        return state;
                    }
                }
                // a connection closed under the statement: no SQLSTATE, and nothing deeper says the record is at fault
                return null;
            }
        }
        return null;
    }
}
