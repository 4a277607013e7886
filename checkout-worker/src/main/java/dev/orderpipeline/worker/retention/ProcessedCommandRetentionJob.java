package dev.orderpipeline.worker.retention;

import dev.orderpipeline.retention.RetentionJob;
import dev.orderpipeline.retention.RetentionJob.Deletion;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes the {@code processed_command} rows older than {@code orderpipeline.worker.retention-job.keep-for}
 * ({@code delete_old_processed_commands}), except those of orders still CREATED (a running cart's claims), with the
 * retention module's {@link RetentionJob}: a batch per short transaction under a statement timeout, never two runs at
 * once on an instance, replicas kept apart by SKIP LOCKED. The worker owns it: the table is the worker's idempotency
 * record, written only in its transactions. Counted in {@code checkout.processed-commands.deleted}, failed runs in
 * {@code checkout.processed-commands.retention.failures}.
 *
 * <p>Safe once a row is older than the topics' retention: a command id comes back only as a redelivery or a replay of
 * the record that carries it (gone from the topic by then); a client's retried checkout of a decided order is refused
 * by the API before anything is published (the claim commits with the decision), and the coordinator re-sends
 * reservations only for carts still CREATED, whose rows are kept.
 */
@Component
final class ProcessedCommandRetentionJob {

    static final String PROCESSED_COMMANDS = "processed commands";

    private static final String DELETE_OLD =
            "SELECT delete_old_processed_commands(:batchSize, make_interval(secs => :keepSeconds))";

    private final RetentionJob job;

    ProcessedCommandRetentionJob(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            MeterRegistry meters,
            ProcessedCommandRetentionProperties properties) {
        var deletion = new Deletion(
                PROCESSED_COMMANDS,
                DELETE_OLD,
                Map.of("keepSeconds", properties.keepFor().toSeconds()),
                Counter.builder("checkout.processed-commands.deleted")
                        .description("processed_command rows older than keep-for deleted by the retention job")
                        .register(meters),
                Counter.builder("checkout.processed-commands.retention.failures")
                        .description("Runs of the processed_command retention job that failed; the next run starts"
                                + " over")
                        .register(meters));
        job = new RetentionJob(
                jdbc, transactions, properties.batchSize(), properties.statementTimeout(), List.of(deletion));
    }

    /** One run; called by the schedule, never throws. */
    RetentionJob.Run run() {
        return job.run();
    }
}
