package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An {@code orders} row as the coordinator locked it.
 *
 * @param id the order
 * @param userId its owner
 * @param cart whether it is a cart (its products are on its lines, not on the row)
 * @param status CREATED, COMPLETED or REJECTED
 * @param rejectReason why it was rejected, or null
 * @param started whether its saga has started (the coordinator set its checkout deadline)
 */
record CartOrder(
        UUID id,
        String userId,
        boolean cart,
        String status,
        @Nullable RejectReason rejectReason,
        boolean started) {

    CartOrder {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(status, "status");
    }

    boolean isCreated() {
        return "CREATED".equals(status);
    }

    /** The final outcome, or null while the order is CREATED. */
    @Nullable
    CheckoutOutcome outcome() {
        return isCreated() ? null : CheckoutOutcome.valueOf(status);
    }

    /** Why the command does not describe this order and its lines, or null when it does. */
    @Nullable
    String mismatch(CartCheckoutCommand command, List<Line> lines) {
        if (!cart) {
            return "order " + id + " is an order of one product, not a cart";
        }
        if (!userId.equals(command.userId())) {
            return "user is not the owner of order " + id;
        }
        var ordered = lines.stream().map(Line::cartLine).toList();
        if (!ordered.equals(command.lines())) {
            return "lines " + describe(command.lines()) + " are not the lines " + describe(ordered) + " of order " + id;
        }
        return null;
    }

    private static String describe(List<CartLine> lines) {
        return lines.stream()
                .map(line -> line.lineNo() + ":" + line.productId() + "x" + line.quantity())
                .toList()
                .toString();
    }
}
