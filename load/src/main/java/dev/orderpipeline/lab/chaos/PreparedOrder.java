package dev.orderpipeline.lab.chaos;

import java.util.Objects;
import java.util.UUID;

/**
 * An order created before the load, waiting for its checkout.
 *
 * @param orderId the order
 * @param product the index of its product in the run's product list
 * @param userId its owner, who checks it out
 */
record PreparedOrder(UUID orderId, int product, String userId) {

    PreparedOrder {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(userId, "userId");
        if (product < 0) {
            throw new IllegalArgumentException("product index must not be negative: " + product);
        }
    }
}
