package dev.orderpipeline.worker.retention;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the worker's retention job deletes old {@code processed_command} rows ({@link ProcessedCommandRetentionJob}).
 *
 * @param enabled whether this instance runs the job. Every replica may: they share the work, each call skipping the
 *     rows another one is deleting. Off, the table gains a row per checkout (and 1 + 2 per cart line) for ever
 * @param interval the pause between the end of one run and the start of the next (the first run comes one interval
 *     after the start)
 * @param batchSize the most rows one call of {@code delete_old_processed_commands} deletes, in one transaction; a run
 *     calls it again until a call deletes fewer. Bounds the locks and the WAL of one transaction
 * @param statementTimeout how long one call may take, set as the transaction's {@code statement_timeout}: a table
 *     locked by another session ends the run with a counted failure at this bound
 * @param keepFor how long a row is kept after its command was applied. It must be longer than the retention of every
 *     topic whose records carry a command id ({@code checkout.commands}, {@code checkout.carts},
 *     {@code checkout.reservations}; Kafka's default {@code retention.ms} is 7 days): a row only dedupes a redelivery
 *     or a replay of its record, which can come only while the record is in its topic. 14 days by default, twice
 *     Kafka's default
 */
@ConfigurationProperties("orderpipeline.worker.retention-job")
@Validated
record ProcessedCommandRetentionProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("1m") @DurationMin(seconds = 1) Duration interval,
        @DefaultValue("1000") @Positive @Max(100_000) int batchSize,
        // statement_timeout takes an int of milliseconds
        @DefaultValue("5s") @DurationMin(millis = 1) @DurationMax(millis = Integer.MAX_VALUE)
        Duration statementTimeout,

        @DefaultValue("14d") @DurationMin(hours = 1) Duration keepFor) {

    static final String ENABLED = "orderpipeline.worker.retention-job.enabled";
}
