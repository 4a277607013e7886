package dev.orderpipeline.worker.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.retention.RetentionJob.Run.Outcome;
import dev.orderpipeline.worker.checkout.WorkerIntegrationTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The worker's retention job against the real database: {@code processed_command} rows older than keep-for go, in
 * batches, except those of orders still CREATED; younger rows stay; a row another session holds is skipped, and a
 * locked table ends the run at its statement timeout, counted. The tests look only at their own rows: the job deletes
 * every old row of the shared database.
 */
class ProcessedCommandRetentionTests extends WorkerIntegrationTest {

    private static final String DELETED = "checkout.processed-commands.deleted";
    private static final String FAILURES = "checkout.processed-commands.retention.failures";

    @Autowired
    private TransactionTemplate transactions;

    @Test
    void deletesRowsOlderThanKeepForInBatchesAndKeepsYoungerOnesAndThoseOfOrdersStillCreated() {
        var old = seedRows(250, "20 days", null);
        var young = seedRows(10, "2 days", null);
        var running = createOrders(createProduct(10, "1.00"), 1, 1).getFirst();
        var ofRunning = seedRows(3, "20 days", running);
        var meters = new SimpleMeterRegistry();

        var run = job(meters, 100, Duration.ofSeconds(5)).run();

        assertThat(run.outcome()).isEqualTo(Outcome.COMPLETED);
        // 100, 100, 50 at least: the run went on while calls deleted a whole batch
        assertThat(run.batches()).isGreaterThanOrEqualTo(3);
        assertThat(run.deleted()).isGreaterThanOrEqualTo(250);
        assertThat(meters.counter(DELETED).count()).isEqualTo(run.deleted());
        assertThat(existing(old)).isZero();
        assertThat(existing(young)).isEqualTo(10);
        assertThat(existing(ofRunning))
                .as("the claims of an order still CREATED")
                .isEqualTo(3);
    }

    @Test
    void skipsARowAnotherSessionHoldsAndEndsARunOnALockedTableAtItsStatementTimeout() throws Exception {
        var held = seedRows(1, "20 days", null);
        var free = seedRows(1, "20 days", null);
        var meters = new SimpleMeterRegistry();
        var job = job(meters, 100, Duration.ofSeconds(1));

        try (var holder = Postgres.forTests().connect(DATABASE_URL)) {
            holder.setAutoCommit(false);
            try (var lock =
                    holder.prepareStatement("SELECT 1 FROM processed_command WHERE command_id = ? FOR UPDATE")) {
                lock.setObject(1, held.getFirst());
                lock.executeQuery().close();
            }
            var skipped = job.run();
            assertThat(skipped.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(existing(held)).isEqualTo(1);
            assertThat(existing(free)).isZero();

            try (var lock = holder.createStatement()) {
                lock.execute("LOCK TABLE processed_command IN ACCESS EXCLUSIVE MODE");
            }
            var started = System.nanoTime();
            var blocked = job.run();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
            assertThat(blocked.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(meters.counter(FAILURES).count()).isEqualTo(1);
            holder.rollback();
        }
        var next = job.run();
        assertThat(next.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(existing(held)).isZero();
    }

    private ProcessedCommandRetentionJob job(SimpleMeterRegistry meters, int batchSize, Duration statementTimeout) {
        return new ProcessedCommandRetentionJob(
                jdbc,
                transactions,
                meters,
                new ProcessedCommandRetentionProperties(
                        true, Duration.ofHours(1), batchSize, statementTimeout, Duration.ofDays(14)));
    }

    /** {@code count} rows processed {@code age} ago, of the given order or each of an order that does not exist. */
    private List<UUID> seedRows(int count, String age, UUID orderId) {
        return jdbc.sql("""
                        INSERT INTO processed_command (command_id, order_id, outcome, processed_at)
                        SELECT gen_random_uuid(), coalesce(:orderId, gen_random_uuid()), 'COMPLETED',
                               now() - CAST(:age AS interval)
                          FROM generate_series(1, :count)
                        RETURNING command_id
                        """)
                .param("count", count)
                .param("age", age)
                .param("orderId", orderId, java.sql.Types.OTHER)
                .query(UUID.class)
                .list();
    }

    private long existing(List<UUID> commandIds) {
        return jdbc.sql("SELECT count(*) FROM processed_command WHERE command_id = ANY(:ids)")
                .param("ids", commandIds.toArray(UUID[]::new))
                .query(Long.class)
                .single();
    }
}
