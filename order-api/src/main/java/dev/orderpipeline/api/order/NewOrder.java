package dev.orderpipeline.api.order;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/**
 * A single-product order about to be placed; the database adds status and timestamps.
 *
 * <p>A request of one product ({@code productId} and {@code quantity}, or {@code lines} that name one product) is
 * placed as this, whatever its shape: one order row and no line rows, checked out with today's command keyed by
 * product. One product stays the common case and keeps its contract and speed.
 */
record NewOrder(UUID id, String userId, UUID productId, int quantity) implements Placement {

    /** The largest payment an order may lead to: what {@code payment.amount}, {@code numeric(14,2)}, holds. */
    static final BigDecimal MAX_AMOUNT = new BigDecimal("999999999999.99");

    NewOrder {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(productId, "productId");
        if (userId.isBlank()) {
            throw new IllegalArgumentException("userId must not be blank");
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
    }
}
