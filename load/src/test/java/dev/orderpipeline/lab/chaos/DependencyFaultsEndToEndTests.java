package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosStacks.assertBooksBalance;
import static dev.orderpipeline.lab.chaos.ChaosStacks.assertHolds;
import static dev.orderpipeline.lab.chaos.ChaosStacks.phase;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.pipeline.StackTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's and the database's faults of the chaos experiment, end to end, on a stack of their own (an embedded
 * PostgreSQL that can be restarted, a broker from the Kafka jars, one API, one worker): one run of single-product
 * checkouts through a broker restart, a PostgreSQL restart, the database switched read-only and a storm of lock
 * timeouts, the broker first, as its outage needs the load. Each test judges its fault's phase of the run, made once
 * by the first test that needs it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(3) // among the end-to-end classes: the longest start first
class DependencyFaultsEndToEndTests {

    private static final int WORKERS = 1;

    private static final List<FaultKind> DEPENDENCY_FAULTS = List.of(
            FaultKind.BROKER_RESTART,
            FaultKind.DATABASE_RESTART,
            FaultKind.DATABASE_READ_ONLY,
            FaultKind.LOCK_TIMEOUT_STORM);

    @AutoClose
    private StackTarget target;

    private final ChaosStacks.SharedRuns runs = new ChaosStacks.SharedRuns();

    @BeforeAll
    void startThePipeline(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path workDirectory) throws IOException {
        target = ChaosStacks.start(workDirectory, 1, WORKERS);
    }

    @Test
    @Order(1)
    void whileTheBrokerIsDownTheApiAnswers503WithRetryAfterAndTheRetriesSucceedOnce() {
        var run = run();

        assertHolds(run);
        var outage = phase(run, FaultKind.BROKER_RESTART);
        assertThat(outage.count("503")).isPositive();
        assertThat(outage.unavailableWithoutRetryAfter()).isZero();
        assertThat(outage.serverErrors()).isZero();
        var retries = run.retries();
        assertThat(retries.ordersRetried()).isPositive();
        assertThat(retries.endedAccepted() + retries.endedConflict()).isEqualTo(retries.ordersRetried());
        assertThat(retries.retriedPaidMoreThanOnce()).isZero();
        assertBooksBalance(target, run);
    }

    @Test
    @Order(2)
    void aPostgresqlRestartUnderLoadLeavesEveryAcceptedCheckoutDecidedOnce() {
        var run = run();

        assertHolds(run);
        var outage = phase(run, FaultKind.DATABASE_RESTART);
        assertThat(outage.serverErrors()).isZero();
        assertThat(outage.caughtUpAfter()).isNotNull();
        assertThat(Objects.requireNonNull(target.stack().postgres().orElseThrow())
                        .isServerRunning())
                .isTrue();
        assertBooksBalance(target, run);
    }

    /**
     * The database read-only: the workers' writes fail with 25006 and must be redelivered until it is writable again,
     * not dead-lettered; the API keeps answering without a 500.
     */
    @Test
    @Order(3)
    void aReadOnlyDatabaseDeadLettersNoValidCommandAndEveryCheckoutIsDecidedOnceItIsWritable() {
        var run = run();

        assertHolds(run);
        var fault = phase(run, FaultKind.DATABASE_READ_ONLY);
        assertThat(fault.validDeadLettered()).isZero();
        assertThat(fault.serverErrors()).isZero();
        assertThat(run.faults())
                .filteredOn(window -> window.kind() == FaultKind.DATABASE_READ_ONLY)
                .singleElement()
                .satisfies(window -> assertThat(window.detail()).contains("default_transaction_read_only"));
        assertWritable();
        assertBooksBalance(target, run);
    }

    /** Lock timeouts (55P03) are transient: the commands that hit them are redelivered, none dead-lettered. */
    @Test
    @Order(4)
    void aStormOfLockTimeoutsDeadLettersNoValidCommandAndDecrementsNothingTwice() {
        var run = run();

        assertHolds(run);
        assertThat(phase(run, FaultKind.LOCK_TIMEOUT_STORM).validDeadLettered()).isZero();
        assertThat(run.faults())
                .filteredOn(window -> window.kind() == FaultKind.LOCK_TIMEOUT_STORM)
                .singleElement()
                .satisfies(window -> assertThat(window.detail()).contains("lock_timeout", "FOR UPDATE"));
        assertBooksBalance(target, run);
    }

    /** The run the tests share, made by the first that asks for it. */
    private ChaosRun run() {
        return runs.of(target, DEPENDENCY_FAULTS, 0.0).get();
    }

    /** The setting was reset: a new session of the apps' kind can write again. */
    private void assertWritable() {
        try (var connection =
                        Objects.requireNonNull(target.database()).dataSource().getConnection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SHOW default_transaction_read_only")) {
            rows.next();
            assertThat(rows.getString(1)).isEqualTo("off");
        } catch (SQLException ex) {
            throw new AssertionError(ex);
        }
    }
}
