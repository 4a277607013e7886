package dev.orderpipeline.api.order;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/** An order about to be placed; the database adds status and timestamps. */
record NewOrder(UUID id, String userId, UUID productId, int quantity) {

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
