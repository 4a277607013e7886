package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

class FailureKindTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                // connection_exception
                "08000",
                "08001",
                "08003",
                "08006",
                "08P01",
                // invalid_transaction_state: read-only (failover, database switched read-only), aborted, timed out
                "25000",
                "25001",
                "25006",
                "25P02",
                "25P03",
                // transaction_rollback: serialization failure, deadlock, outcome unknown
                "40000",
                "40001",
                "40002",
                "40003",
                "40P01",
                // the schema is not deployed yet: undefined table, column, function
                "42P01",
                "42703",
                "42883",
                // insufficient_resources: disk full, out of memory, too many connections
                "53000",
                "53100",
                "53200",
                "53300",
                "53400",
                // lock_not_available and the rest of object_not_in_prerequisite_state
                "55P03",
                "55000",
                "55006",
                // operator_intervention: query canceled (statement timeout), admin and crash shutdown, cannot connect
                "57000",
                "57014",
                "57P01",
                "57P02",
                "57P03",
                "57P04",
                "57P05",
                // system_error
                "58000",
                "58030",
                "58P01",
                // internal_error, data_corrupted, index_corrupted
                "XX000",
                "XX001",
                "XX002",
                // not foreseen: a syntax error or a missing grant is not the record's fault either
                "42601",
                "42501",
                "0A000",
                "P0001"
            })
    void treatsEveryFailureOfTheDatabaseAsTransient(String sqlState) {
        assertThat(FailureKind.of(uncategorized(sqlState))).isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new SQLException("failure", sqlState))).isEqualTo(FailureKind.TRANSIENT);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                // data_exception: numeric overflow, string too long, invalid text, division by zero
                "22000",
                "22001",
                "22003",
                "22012",
                "22P02",
                // integrity_constraint_violation: not null, foreign key, unique, check, exclusion
                "23000",
                "23502",
                "23503",
                "23505",
                "23514",
                "23P01"
            })
    void blamesTheRecordForDataTheDatabaseRefuses(String sqlState) {
        assertThat(FailureKind.of(uncategorized(sqlState))).isEqualTo(FailureKind.RECORD_AT_FAULT);
        assertThat(FailureKind.of(new DataIntegrityViolationException("refused", new SQLException("x", sqlState))))
                .isEqualTo(FailureKind.RECORD_AT_FAULT);
    }

    @Test
    void treatsFailedCommitsRollbacksAndConnectionsAsTransient() {
        assertThat(FailureKind.of(new CannotAcquireLockException("lock"))).isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new RecoverableDataAccessException("recoverable")))
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new DataAccessResourceFailureException("down")))
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(
                        new CannotGetJdbcConnectionException("pool", new SQLTransientConnectionException("timeout"))))
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new CannotCreateTransactionException("begin")))
                .isEqualTo(FailureKind.TRANSIENT);
        // a commit whose connection died: the outcome is unknown, the replay absorbs it as duplicates
        assertThat(FailureKind.of(new TransactionSystemException("commit", new SQLException("closed", "08003"))))
                .isEqualTo(FailureKind.TRANSIENT);
        // a rollback on a terminated session: Hikari's "Connection is closed" carries no SQLState
        assertThat(FailureKind.of(new TransactionSystemException(
                        "JDBC rollback failed", new SQLException("Connection is closed"))))
                .isEqualTo(FailureKind.TRANSIENT);
    }

    @Test
    void treatsWhatNobodyForesawAsTransientRatherThanLoseAValidCommand() {
        assertThat(FailureKind.of(new IllegalStateException("bug"))).isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new DataIntegrityViolationException("no SQLSTATE")))
                .isEqualTo(FailureKind.TRANSIENT);
        assertThat(FailureKind.of(new BadSqlGrammarException("select", "SELEC", new SQLException("syntax", "42601"))))
                .isEqualTo(FailureKind.TRANSIENT);
    }

    @Test
    void readsTheStateOfTheStatementBehindABatchFailure() {
        var batch = new BatchUpdateException("batch entry 0 failed", null, 0, new int[0], null);
        batch.setNextException(new SQLException("value too long", "22001"));
        assertThat(FailureKind.of(new UncategorizedSQLException("batch", "SQL", batch)))
                .isEqualTo(FailureKind.RECORD_AT_FAULT);
    }

    private static UncategorizedSQLException uncategorized(String sqlState) {
        return new UncategorizedSQLException("statement", "SQL", new SQLException("failure", sqlState));
    }
}
