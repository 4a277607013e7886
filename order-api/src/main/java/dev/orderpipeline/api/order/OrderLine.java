package dev.orderpipeline.api.order;

import dev.orderpipeline.contract.RejectReason;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One product of an order and what its checkout did to it.
 *
 * @param lineNo the line's number within its order, from 1, in the order the client listed the products
 * @param productId the product
 * @param quantity units ordered, positive
 * @param status the line's own state: a cart's lines are reserved one by one
 * @param rejectReason why the line was refused; present exactly when its status is REFUSED
 */
public record OrderLine(
        int lineNo,
        UUID productId,
        int quantity,
        LineStatus status,
        @Nullable RejectReason rejectReason) {

    public OrderLine {
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(status, "status");
        if (lineNo < 1) {
            throw new IllegalArgumentException("lineNo must be positive, was " + lineNo);
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        if ((status == LineStatus.REFUSED) != (rejectReason != null)) {
            throw new IllegalArgumentException("a reject reason goes with REFUSED and only with it");
        }
    }

    /** The only line of a single-product order, whose state follows the order's. */
    static OrderLine only(UUID productId, int quantity, OrderStatus status, @Nullable RejectReason rejectReason) {
        return new OrderLine(1, productId, quantity, LineStatus.of(status), rejectReason);
    }
}
