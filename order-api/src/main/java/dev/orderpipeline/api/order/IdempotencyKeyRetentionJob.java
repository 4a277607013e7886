package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.DatabaseFailures;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Forgets expired idempotency keys: deletes the {@code order_idempotency_key} rows past their {@code expires_at},
 * never the orders they name. The API already treats an expired key as new; this only keeps the table from growing.
 *
 * <p>A run calls {@code forget_expired_order_idempotency_keys(batch-size)} until a call deletes fewer keys than the
 * batch size, each call in a transaction of its own whose {@code statement_timeout} is {@code
 * orderpipeline.orders.retention-job.statement-timeout}: a call holds its locks and its connection briefly, and a
 * table locked by another session ends the run at that bound, counted as a failure, instead of hanging it. The next
 * run starts over; what the calls before the failure deleted stays deleted.
 *
 * <p>On one instance a run never overlaps another: a run that finds one in progress returns at once. Replicas need no
 * coordination: every replica runs the job, and the function takes its keys {@code FOR UPDATE SKIP LOCKED}, so two
 * runs at once delete different keys, neither waits for the other, and a key a request is taking over at that moment
 * is left alone. A failure is logged and counted ({@code orders.idempotency.retention.failures}), never thrown to the
 * scheduler, which would otherwise stop scheduling the job; the keys deleted are counted in {@code
 * orders.idempotency.keys.forgotten}.
 */
@Component
final class IdempotencyKeyRetentionJob {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyKeyRetentionJob.class);

    // SET LOCAL takes no bind parameter; set_config(..., true) is the same, for this transaction only
    private static final String BOUND = "SELECT set_config('statement_timeout', :timeout, true)";

    private static final String FORGET = "SELECT forget_expired_order_idempotency_keys(:batchSize)";

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final RetentionJobProperties properties;
    private final AtomicBoolean running = new AtomicBoolean();
    private final Counter forgotten;
    private final Counter failures;

    IdempotencyKeyRetentionJob(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            MeterRegistry meters,
            RetentionJobProperties properties) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.properties = properties;
        this.forgotten = Counter.builder("orders.idempotency.keys.forgotten")
                .description("Expired idempotency keys deleted by the retention job")
                .register(meters);
        this.failures = Counter.builder("orders.idempotency.retention.failures")
                .description("Runs of the idempotency keys' retention job that failed; the next run starts over")
                .register(meters);
    }

    /** One run: deletes every key expired by now, batch by batch. Called by the schedule; never throws. */
    Run run() {
        if (!running.compareAndSet(false, true)) {
            log.debug("The retention job is running already; skipping this run");
            return new Run(Run.Outcome.SKIPPED, 0, 0);
        }
        var batches = 0;
        var deleted = 0L;
        try {
            int forgottenNow;
            do {
                forgottenNow = forgetBatch();
                batches++;
                deleted += forgottenNow;
                forgotten.increment(forgottenNow);
            } while (forgottenNow >= properties.batchSize()
                    && !Thread.currentThread().isInterrupted());
            if (deleted > 0) {
                log.debug("Forgot {} expired idempotency keys in {} batches", deleted, batches);
            }
            return new Run(Run.Outcome.COMPLETED, batches, deleted);
        } catch (DataAccessException | TransactionException ex) {
            failures.increment();
            DatabaseFailures.logFailure(
                    log,
                    ex,
                    "Forgetting expired idempotency keys failed after {} deleted; the next run goes on",
                    deleted);
            return new Run(Run.Outcome.FAILED, batches, deleted);
        } catch (RuntimeException ex) {
            failures.increment();
            log.error("Forgetting expired idempotency keys failed after {} deleted", deleted, ex);
            return new Run(Run.Outcome.FAILED, batches, deleted);
        } finally {
            running.set(false);
        }
    }

    /** One call of the function in its own transaction, bounded by the statement timeout: the keys it deleted. */
    private int forgetBatch() {
        var deleted = transactions.execute(status -> {
            jdbc.sql(BOUND)
                    .param("timeout", properties.statementTimeout().toMillis() + "ms")
                    .query(String.class)
                    .single();
            return jdbc.sql(FORGET)
                    .param("batchSize", properties.batchSize())
                    .query(Integer.class)
                    .single();
        });
        return Objects.requireNonNull(deleted, "forget_expired_order_idempotency_keys answered null");
    }

    /**
     * What one run did.
     *
     * @param outcome whether it ran to the end, failed on the way, or did not run because another run was in progress
     * @param batches the calls of the function that completed
     * @param forgotten the keys those calls deleted
     */
    record Run(Outcome outcome, int batches, long forgotten) {

        enum Outcome {
            COMPLETED,
            FAILED,
            SKIPPED
        }
    }
}
