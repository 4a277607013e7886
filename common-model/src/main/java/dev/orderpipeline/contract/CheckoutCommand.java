package dev.orderpipeline.contract;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Asks the worker to check out one order: take {@code quantity} units of the product's stock and, if they are
 * there, complete the order and capture its payment; otherwise reject it.
 *
 * <p>The command id is derived from the order id ({@link #idFor(UUID)}), so a double click or a client retry
 * produces the same command and the worker's idempotency table absorbs it.
 *
 * @param commandId stable id of this command, derived from the order id
 * @param orderId the order to check out
 * @param productId the ordered product; also the record key
 * @param userId the order's owner
 * @param quantity units ordered, positive
 * @param requestedAt when the API accepted the checkout
 */
public record CheckoutCommand(
        UUID commandId, UUID orderId, UUID productId, String userId, int quantity, Instant requestedAt) {

    /** Value of the {@link Headers#COMMAND_TYPE} header. */
    public static final String TYPE = "checkout";

    public CheckoutCommand {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(requestedAt, "requestedAt");
        if (userId.isBlank()) {
            throw new IllegalArgumentException("userId must not be blank");
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        if (!commandId.equals(idFor(orderId))) {
            throw new IllegalArgumentException(
                    "commandId " + commandId + " is not the checkout command id of order " + orderId);
        }
    }

    /** The checkout command for an order, stamped now. */
    public static CheckoutCommand of(UUID orderId, UUID productId, String userId, int quantity, Instant requestedAt) {
        return new CheckoutCommand(idFor(orderId), orderId, productId, userId, quantity, requestedAt);
    }

    /** The one checkout command id an order can have (a name-based UUID of the order id). */
    public static UUID idFor(UUID orderId) {
        return UUID.nameUUIDFromBytes(("checkout:" + orderId).getBytes(StandardCharsets.UTF_8));
    }

    /** The record key: commands of one product land on one partition, in order. */
    public String key() {
        return productId.toString();
    }
}
