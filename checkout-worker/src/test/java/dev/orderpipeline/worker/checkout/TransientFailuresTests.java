package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

class TransientFailuresTests {

    @Test
    void treatsLostConnectionsLockVictimsAndUnavailableDatabasesAsTransient() {
        assertThat(TransientFailures.isTransient(new CannotAcquireLockException("lock")))
                .isTrue();
        assertThat(TransientFailures.isTransient(new RecoverableDataAccessException("recoverable")))
                .isTrue();
        assertThat(TransientFailures.isTransient(new DataAccessResourceFailureException("down")))
                .isTrue();
        assertThat(TransientFailures.isTransient(
                        new CannotGetJdbcConnectionException("pool", new SQLTransientConnectionException("timeout"))))
                .isTrue();
        assertThat(TransientFailures.isTransient(new CannotCreateTransactionException("begin")))
                .isTrue();
        assertThat(TransientFailures.isTransient(uncategorized("40001"))).isTrue();
        assertThat(TransientFailures.isTransient(uncategorized("40P01"))).isTrue();
        assertThat(TransientFailures.isTransient(uncategorized("08006"))).isTrue();
        assertThat(TransientFailures.isTransient(uncategorized("57P01"))).isTrue();
        // a commit whose connection died: the outcome is unknown, the replay absorbs it as duplicates
        assertThat(TransientFailures.isTransient(
                        new TransactionSystemException("commit", new SQLException("closed", "08003"))))
                .isTrue();
        // a rollback on a terminated session: Hikari's "Connection is closed" carries no SQLState
        assertThat(TransientFailures.isTransient(new TransactionSystemException(
                        "JDBC rollback failed", new SQLException("Connection is closed"))))
                .isTrue();
    }

    @Test
    void treatsBugsAndRefusedDataAsPermanent() {
        assertThat(TransientFailures.isTransient(new IllegalStateException("bug")))
                .isFalse();
        assertThat(TransientFailures.isTransient(new DataIntegrityViolationException("check")))
                .isFalse();
        assertThat(TransientFailures.isTransient(
                        new BadSqlGrammarException("select", "SELEC", new SQLException("syntax", "42601"))))
                .isFalse();
        assertThat(TransientFailures.isTransient(uncategorized("22003"))).isFalse();
    }

    private static UncategorizedSQLException uncategorized(String sqlState) {
        return new UncategorizedSQLException("statement", "SQL", new SQLException("failure", sqlState));
    }
}
