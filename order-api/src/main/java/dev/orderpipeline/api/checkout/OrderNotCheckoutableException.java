package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.UUID;

/** The order is already decided (COMPLETED, REJECTED); only a CREATED one checks out. */
public final class OrderNotCheckoutableException extends ProblemException {

    public OrderNotCheckoutableException(UUID orderId, OrderStatus status) {
        super(
                ProblemKind.ORDER_NOT_CHECKOUTABLE,
                "Order " + orderId + " is " + status + "; only a CREATED order can be checked out");
        property("orderId", orderId);
        // not "status": RFC 9457 reserves that member for the HTTP status code
        property("orderStatus", status);
    }
}
