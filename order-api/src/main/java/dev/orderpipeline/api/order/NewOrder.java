package dev.orderpipeline.api.order;

import java.util.Objects;
import java.util.UUID;

/** An order about to be placed; the database adds status and timestamps. */
record NewOrder(UUID id, String userId, UUID productId, int quantity) {

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
