package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The outcome the idempotency table holds for a command applied before.
 *
 * @param commandId the command
 * @param outcome its outcome
 * @param rejectReason why it was rejected, null when completed
 * @param processedAt when it was applied
 */
record RecordedOutcome(
        UUID commandId, CheckoutOutcome outcome, @Nullable RejectReason rejectReason, Instant processedAt) {

    RecordedOutcome {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(processedAt, "processedAt");
    }
}
