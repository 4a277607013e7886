package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The order row a checkout command refers to, as locked by the applying transaction.
 *
 * @param id the order id
 * @param productId the ordered product, or null for a cart (an order of several products, which its lines hold)
 * @param quantity units ordered (0 for a cart)
 * @param userId the owner
 * @param status CREATED, COMPLETED or REJECTED (or a lab strategy's claim, PROCESSING, on a lab database)
 */
record CheckoutOrder(UUID id, @Nullable UUID productId, int quantity, String userId, String status) {

    CheckoutOrder {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(status, "status");
    }

    boolean isCreated() {
        return "CREATED".equals(status);
    }

    /** Why the command does not describe this order, or null when it does. */
    @Nullable
    String mismatch(CheckoutCommand command) {
        if (productId == null) {
            // a cart is checked out by its saga (checkout.carts), never by a single-product command
            return "order " + id + " is a cart of several products, not an order of product " + command.productId();
        }
        if (!productId.equals(command.productId())) {
            return "product " + command.productId() + " is not the product of order " + id;
        }
        if (quantity != command.quantity()) {
            return "quantity " + command.quantity() + " is not the quantity " + quantity + " of order " + id;
        }
        if (!userId.equals(command.userId())) {
            return "user is not the owner of order " + id;
        }
        return null;
    }
}
