package dev.orderpipeline.api.order;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the retention job forgets expired idempotency keys and deletes abandoned orders ({@link OrderRetentionJob}).
 *
 * @param enabled whether this instance runs the job. Every replica may: they share the work, each call skipping the
 *     rows another one is deleting. Off, expired keys are still treated as new by the API, but their rows stay, and
 *     so do abandoned orders
 * @param interval the pause between the end of one run and the start of the next (the first run comes one interval
 *     after the start). A run deletes every key expired by then, so this is about how long an expired key's row
 *     outlives its retention
 * @param batchSize the most keys one call of {@code forget_expired_order_idempotency_keys}, and the most orders one
 *     call of {@code delete_abandoned_orders}, deletes, in one transaction; a run calls each again until a call
 *     deletes fewer. Bounds the locks and the WAL of one transaction
 * @param statementTimeout how long one call may take, set as the transaction's {@code statement_timeout}: a table
 *     locked by another session (a migration, a manual {@code LOCK TABLE}) ends the run with a counted failure at
 *     this bound instead of holding a connection of the API's pool until the lock goes
 * @param abandonedAfter how long after its creation an order that was never checked out (CREATED, no cart saga
 *     started) is deleted, with its lines and idempotency keys. Long enough that nobody still means to check it out:
 *     an order deleted while its checkout command waits in {@code checkout.commands} is dead-lettered by the worker
 *     as an order that does not exist, and its client never gets a decision
 */
@ConfigurationProperties("orderpipeline.orders.retention-job")
@Validated
record RetentionJobProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("1m") @DurationMin(seconds = 1) Duration interval,
        @DefaultValue("1000") @Positive @Max(100_000) int batchSize,
        // statement_timeout takes an int of milliseconds
        @DefaultValue("5s") @DurationMin(millis = 1) @DurationMax(millis = Integer.MAX_VALUE)
        Duration statementTimeout,

        @DefaultValue("30d") @DurationMin(hours = 1) Duration abandonedAfter) {

    static final String ENABLED = "orderpipeline.orders.retention-job.enabled";
}
