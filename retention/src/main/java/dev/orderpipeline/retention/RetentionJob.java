package dev.orderpipeline.retention;

import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes what a table no longer needs, a batch at a time: a run calls each {@link Deletion}'s statement (a SQL
 * function that deletes at most {@code :batchSize} rows and answers how many) until a call deletes fewer than the
 * batch size, each call in a transaction of its own whose {@code statement_timeout} is the job's: a call holds its
 * locks and its connection briefly, and a table locked by another session ends that deletion at this bound, counted
 * as a failure, instead of hanging the run. The next run starts over; what the calls before the failure deleted stays
 * deleted. A deletion that fails does not keep the others of the run from running.
 *
 * <p>On one instance a run never overlaps another: a run that finds one in progress returns at once. Replicas need no
 * coordination: every replica runs the job, and each function takes its rows {@code FOR UPDATE SKIP LOCKED}, so two
 * runs at once delete different rows and neither waits for the other. A failure is logged and counted in the
 * deletion's failures counter, never thrown to the scheduler, which would otherwise stop scheduling the job; the rows
 * deleted are counted in its deleted counter.
 */
public final class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    // SET LOCAL takes no bind parameter; set_config(..., true) is the same, for this transaction only
    private static final String BOUND = "SELECT set_config('statement_timeout', :timeout, true)";

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final int batchSize;
    private final Duration statementTimeout;
    private final List<Deletion> deletions;
    private final AtomicBoolean running = new AtomicBoolean();

    /**
     * @param batchSize the most rows one call deletes, in one transaction; bounds its locks and its WAL
     * @param statementTimeout how long one call may take
     * @param deletions what a run deletes, in this order
     */
    public RetentionJob(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            int batchSize,
            Duration statementTimeout,
            List<Deletion> deletions) {
        if (batchSize <= 0 || statementTimeout.isNegative() || statementTimeout.isZero()) {
            throw new IllegalArgumentException("a retention job needs a positive batch size and statement timeout");
        }
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.batchSize = batchSize;
        this.statementTimeout = statementTimeout;
        this.deletions = List.copyOf(deletions);
    }

    /** One run: each deletion until a call deletes less than a batch. Called by a schedule; never throws. */
    public Run run() {
        if (!running.compareAndSet(false, true)) {
            log.debug("A retention run is in progress already; skipping this one");
            return new Run(Run.Outcome.SKIPPED, List.of());
        }
        try {
            var results = new ArrayList<Result>(deletions.size());
            for (var deletion : deletions) {
                results.add(delete(deletion));
            }
            var failed = results.stream().anyMatch(result -> !result.completed());
            return new Run(failed ? Run.Outcome.FAILED : Run.Outcome.COMPLETED, results);
        } finally {
            running.set(false);
        }
    }

    private Result delete(Deletion deletion) {
        var batches = 0;
        var deleted = 0L;
        try {
            int deletedNow;
            do {
                deletedNow = deleteBatch(deletion);
                batches++;
                deleted += deletedNow;
                deletion.deleted().increment(deletedNow);
            } while (deletedNow >= batchSize && !Thread.currentThread().isInterrupted());
            if (deleted > 0) {
                log.debug("Deleted {} {} in {} batches", deleted, deletion.what(), batches);
            }
            return new Result(deletion.what(), true, batches, deleted);
        } catch (RuntimeException ex) {
            deletion.failures().increment();
            log.warn("Deleting {} failed after {} deleted; the next run goes on", deletion.what(), deleted, ex);
            return new Result(deletion.what(), false, batches, deleted);
        }
    }

    /** One call of the deletion's statement in its own transaction, bounded by the statement timeout. */
    private int deleteBatch(Deletion deletion) {
        var deleted = transactions.execute(status -> {
            jdbc.sql(BOUND)
                    .param("timeout", statementTimeout.toMillis() + "ms")
                    .query(String.class)
                    .single();
            var call = jdbc.sql(deletion.statement()).param("batchSize", batchSize);
            for (var parameter : deletion.parameters().entrySet()) {
                call = call.param(parameter.getKey(), parameter.getValue());
            }
            return call.query(Integer.class).single();
        });
        return Objects.requireNonNull(deleted, deletion.statement() + " answered null");
    }

    /**
     * One kind of row a run deletes.
     *
     * @param what the rows, in words, for the log ("expired idempotency keys")
     * @param statement a query of one integer, the rows one call deleted, with the named parameter {@code :batchSize}
     *     for the most it may delete (a SQL function's call: {@code SELECT forget_...(:batchSize)})
     * @param parameters the statement's other named parameters
     * @param deleted counts the rows deleted
     * @param failures counts the runs in which this deletion failed
     */
    public record Deletion(
            String what, String statement, Map<String, ?> parameters, Counter deleted, Counter failures) {

        public Deletion {
            parameters = Map.copyOf(parameters);
        }
    }

    /**
     * What one deletion did in a run.
     *
     * @param what the deletion's rows, in words
     * @param completed whether it ran until a call deleted less than a batch
     * @param batches the calls that completed
     * @param deleted the rows those calls deleted
     */
    public record Result(String what, boolean completed, int batches, long deleted) {}

    /**
     * What one run did.
     *
     * @param outcome whether every deletion ran to the end, one failed on the way, or the run did not start because
     *     another run was in progress
     * @param results each deletion's, in the job's order (none when skipped)
     */
    public record Run(Outcome outcome, List<Result> results) {

        public Run {
            results = List.copyOf(results);
        }

        /** The calls that completed, over every deletion. */
        public int batches() {
            return results.stream().mapToInt(Result::batches).sum();
        }

        /** The rows deleted, over every deletion. */
        public long deleted() {
            return results.stream().mapToLong(Result::deleted).sum();
        }

        /** The result of the deletion of {@code what}. */
        public Result of(String what) {
            return results.stream()
                    .filter(result -> result.what().equals(what))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no deletion of " + what + " in this run"));
        }

        public enum Outcome {
            COMPLETED,
            FAILED,
            SKIPPED
        }
    }
}
