package dev.orderpipeline.contract;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a reservation step did to a cart's line, published after it committed, back to the cart's coordinator.
 *
 * <p>Like {@link CheckoutResult}, the database stays the source of truth: the coordinator decides from the lines'
 * states as the database has them, so a reply that comes twice, late or not at all changes no outcome (a lost one
 * only delays the decision to the saga's timeout).
 *
 * @param commandId the step this reply answers
 * @param action the step's action
 * @param orderId the cart; also the record key
 * @param lineNo the line
 * @param productId the line's product
 * @param outcome the line's state after the step
 * @param rejectReason why a line was refused, or {@code null}
 * @param decidedAt when the step committed
 */
public record ReservationReply(
        UUID commandId,
        ReservationCommand.Action action,
        UUID orderId,
        int lineNo,
        UUID productId,
        LineOutcome outcome,
        @Nullable RejectReason rejectReason,
        Instant decidedAt) {

    /** A line's state after a reservation step. */
    public enum LineOutcome {
        /** The units are taken from stock and held for the order. */
        RESERVED,
        /** Not enough stock: the order will be rejected. */
        REFUSED,
        /** The order was decided before this line's reservation arrived: nothing was taken. */
        CANCELLED,
        /** The reserved units are back in stock. */
        RELEASED
    }

    /** Value of the {@link Headers#COMMAND_TYPE} header. */
    public static final String TYPE = "reservation-reply";

    public ReservationReply {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(decidedAt, "decidedAt");
        if ((outcome == LineOutcome.REFUSED) != (rejectReason != null)) {
            throw new IllegalArgumentException("a reject reason goes with REFUSED and only with it");
        }
    }

    /** The record key. */
    public String key() {
        return orderId.toString();
    }
}
