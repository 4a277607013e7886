package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.UUID;

/** The worker said lately that the product has fewer units left than the order asks; the order stays CREATED. */
final class SoldOutException extends ProblemException {

    SoldOutException(UUID orderId, UUID productId, int available) {
        super(
                ProblemKind.SOLD_OUT,
                "Product " + productId + " has " + available + " units left, fewer than order " + orderId
                        + " asks; the order stays CREATED and can be checked out again after a restock");
        property("orderId", orderId);
        property("productId", productId);
        property("available", available);
    }
}
