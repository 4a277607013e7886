package dev.orderpipeline.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/** Which database failures are an outage (503, retry later) and which a bug (500). */
class DatabaseFailuresTests {

    @Test
    void takesSpringsTransientAndResourceFailuresForAnOutage() {
        var connection = new SQLTransientConnectionException("pool timed out");
        assertThat(DatabaseFailures.isUnavailable(new CannotGetJdbcConnectionException("no connection", connection)))
                .isTrue();
        assertThat(DatabaseFailures.isUnavailable(new DataAccessResourceFailureException("gone")))
                .isTrue();
        assertThat(DatabaseFailures.isUnavailable(new QueryTimeoutException("slow")))
                .isTrue();
        assertThat(DatabaseFailures.isUnavailable(new CannotAcquireLockException("locked")))
                .isTrue();
        assertThat(DatabaseFailures.isUnavailable(new CannotCreateTransactionException("no connection")))
                .isTrue();
        assertThat(DatabaseFailures.isUnavailable(new TransactionSystemException("commit failed")))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"08006", "08001", "53300", "53100", "57P01", "57014", "40001", "40P01", "55P03", "25006"})
    void takesTheSqlStatesOfAnUnavailableDatabaseForAnOutage(String state) {
        var uncategorized = new UncategorizedSQLException("insert", "INSERT ...", new SQLException("refused", state));
        assertThat(DatabaseFailures.isUnavailable(uncategorized)).isTrue();
        // however deeply wrapped
        assertThat(DatabaseFailures.isUnavailable(new IllegalStateException("while answering", uncategorized)))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"42P01", "42601", "22021", "23505", "XX000", "", "4"})
    void takesOtherSqlStatesForABug(String state) {
        assertThat(DatabaseFailures.isUnavailable(
                        new UncategorizedSQLException("select", "SELECT ...", new SQLException("wrong", state))))
                .isFalse();
    }

    @Test
    void takesOurMistakesForABug() {
        assertThat(DatabaseFailures.isUnavailable(new BadSqlGrammarException(
                        "select", "SELECT * FROM nowhere", new SQLException("no such relation", "42P01"))))
                .isFalse();
        assertThat(DatabaseFailures.isUnavailable(new DuplicateKeyException("duplicate")))
                .isFalse();
        assertThat(DatabaseFailures.isUnavailable(new DataIntegrityViolationException("constraint")))
                .isFalse();
        assertThat(DatabaseFailures.isUnavailable(new IllegalStateException("not the database")))
                .isFalse();
    }

    @Test
    void logsAFailureInOneLineAndItsStackTraceOnlyAtDebug() {
        var log = (Logger) LoggerFactory.getLogger("DatabaseFailuresTests.logFailure");
        log.setLevel(Level.DEBUG);
        var appender = new ListAppender<ILoggingEvent>();
        appender.start();
        log.addAppender(appender);
        var failure = new CannotGetJdbcConnectionException(
                "no connection", new SQLTransientConnectionException("pool timed out"));

        DatabaseFailures.logFailure(log, failure, "Checkout of order {} failed in the database", "o-1");

        assertThat(appender.list).hasSize(2);
        var warning = appender.list.get(0);
        assertThat(warning.getLevel()).isEqualTo(Level.WARN);
        assertThat(warning.getFormattedMessage())
                .isEqualTo("Checkout of order o-1 failed in the database: "
                        + "java.sql.SQLTransientConnectionException: pool timed out");
        assertThat(warning.getThrowableProxy()).isNull();
        var trace = appender.list.get(1);
        assertThat(trace.getLevel()).isEqualTo(Level.DEBUG);
        assertThat(trace.getFormattedMessage()).isEqualTo("Checkout of order o-1 failed in the database");
        assertThat(trace.getThrowableProxy().getClassName())
                .isEqualTo(CannotGetJdbcConnectionException.class.getName());
    }
}
