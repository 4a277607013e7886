package dev.orderpipeline.contract;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Asks the cart coordinator to check out an order of several products: reserve every line on its product's
 * partition, then complete the order and capture its payment, or release what was reserved and reject it.
 *
 * <p>The command id is the order's one checkout command id ({@link CheckoutCommand#idFor(UUID)}): a double click
 * or a client retry is the same command.
 *
 * @param commandId stable id of this command, derived from the order id
 * @param orderId the order to check out; also the record key
 * @param userId the order's owner
 * @param lines the order's lines, numbered from 1, each product once; at least two
 * @param requestedAt when the API accepted the checkout
 */
public record CartCheckoutCommand(
        UUID commandId, UUID orderId, String userId, List<CartLine> lines, Instant requestedAt) {

    /** Value of the {@link Headers#COMMAND_TYPE} header. */
    public static final String TYPE = "cart-checkout";

    public CartCheckoutCommand {
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(requestedAt, "requestedAt");
        lines = List.copyOf(lines);
        if (userId.isBlank()) {
            throw new IllegalArgumentException("userId must not be blank");
        }
        if (lines.size() < 2) {
            throw new IllegalArgumentException("a cart has at least two lines, this one " + lines.size());
        }
        var products = new HashSet<UUID>();
        for (int i = 0; i < lines.size(); i++) {
            var line = lines.get(i);
            if (line.lineNo() != i + 1) {
                throw new IllegalArgumentException("lines are numbered 1.." + lines.size() + " in order");
            }
            if (!products.add(line.productId())) {
                throw new IllegalArgumentException("product " + line.productId() + " is on two lines");
            }
        }
        if (!commandId.equals(CheckoutCommand.idFor(orderId))) {
            throw new IllegalArgumentException(
                    "commandId " + commandId + " is not the checkout command id of order " + orderId);
        }
    }

    /** The cart checkout command for an order, stamped now. */
    public static CartCheckoutCommand of(UUID orderId, String userId, List<CartLine> lines, Instant requestedAt) {
        return new CartCheckoutCommand(CheckoutCommand.idFor(orderId), orderId, userId, lines, requestedAt);
    }

    /** The record key: one coordinator owns each order's saga. */
    public String key() {
        return orderId.toString();
    }
}
