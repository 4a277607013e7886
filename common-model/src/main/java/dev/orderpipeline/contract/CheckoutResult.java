package dev.orderpipeline.contract;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What the worker decided for a checkout command, published after the decision is committed.
 *
 * <p>The database stays the source of truth: a result may be published more than once (a redelivered command
 * reports the outcome recorded the first time, with {@code duplicate} set) and may be lost if the worker dies
 * between its commit and the publish; clients then read the order.
 *
 * @param commandId the command this result answers
 * @param orderId the order checked out; also the record key
 * @param productId the ordered product, or {@code null} for a cart of several products
 * @param outcome the order's final status
 * @param rejectReason why it was rejected, or {@code null} when completed
 * @param duplicate whether this command had already been applied before this delivery
 * @param decidedAt when the worker committed the decision
 */
public record CheckoutResult(
        UUID commandId,
        UUID orderId,
        @Nullable UUID productId,
        CheckoutOutcome outcome,
        @Nullable RejectReason rejectReason,
        boolean duplicate,
        Instant decidedAt) {

    public CheckoutResult {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(decidedAt, "decidedAt");
        if ((outcome == CheckoutOutcome.REJECTED) != (rejectReason != null)) {
            throw new IllegalArgumentException("a reject reason goes with REJECTED and only with it");
        }
    }

    /** The record key. */
    public String key() {
        return orderId.toString();
    }
}
