package dev.orderpipeline.contract;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A step of a cart's saga on one product: reserve a line's units (a conditional decrement held for the order) or
 * release them again (the compensation of a reservation whose order was rejected).
 *
 * <p>The command id is derived from the order, the line and the action ({@link #idFor}), so a redelivered or
 * re-sent step is the same command and the worker's idempotency table absorbs it.
 *
 * @param commandId stable id of this step
 * @param action reserve or release
 * @param orderId the cart
 * @param lineNo the line within the cart
 * @param productId the line's product; also the record key
 * @param quantity the line's units, positive
 * @param requestedAt when the coordinator sent the step
 */
public record ReservationCommand(
        UUID commandId, Action action, UUID orderId, int lineNo, UUID productId, int quantity, Instant requestedAt) {

    /** What the step does to the line's product. */
    public enum Action {
        /** Take the units from stock into the line's reservation, if they are there. */
        RESERVE,
        /** Give a reserved line's units back to stock. */
        RELEASE;

        /** Value of the {@link Headers#COMMAND_TYPE} header. */
        public String type() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public ReservationCommand {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(requestedAt, "requestedAt");
        if (lineNo < 1) {
            throw new IllegalArgumentException("lineNo must be positive, was " + lineNo);
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        if (!commandId.equals(idFor(action, orderId, lineNo))) {
            throw new IllegalArgumentException(
                    "commandId " + commandId + " is not the " + action + " id of line " + lineNo + " of " + orderId);
        }
    }

    /** The step for a cart's line, stamped now. */
    public static ReservationCommand of(Action action, UUID orderId, CartLine line, Instant requestedAt) {
        return new ReservationCommand(
                idFor(action, orderId, line.lineNo()),
                action,
                orderId,
                line.lineNo(),
                line.productId(),
                line.quantity(),
                requestedAt);
    }

    /** The one id a line's reservation (or its release) can have. */
    public static UUID idFor(Action action, UUID orderId, int lineNo) {
        return UUID.nameUUIDFromBytes((action.type() + ":" + orderId + ":" + lineNo).getBytes(StandardCharsets.UTF_8));
    }

    /** The line this step acts on. */
    public CartLine line() {
        return new CartLine(lineNo, productId, quantity);
    }

    /** The record key: steps on one product land on one partition, with its single-product checkouts' topic. */
    public String key() {
        return productId.toString();
    }
}
