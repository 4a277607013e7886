package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.UUID;

/**
 * No order with this id belongs to the caller. Someone else's order gets the same answer as a missing one, so
 * that order ids cannot be probed.
 */
public final class OrderNotFoundException extends ProblemException {

    public OrderNotFoundException(UUID orderId) {
        super(ProblemKind.ORDER_NOT_FOUND, "Order " + orderId + " does not exist");
        property("orderId", orderId);
    }
}
