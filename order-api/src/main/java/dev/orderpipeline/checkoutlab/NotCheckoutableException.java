package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.UUID;

/** The order is claimed (PROCESSING) or decided; only a CREATED one checks out. The same problem as production's. */
final class NotCheckoutableException extends ProblemException {

    NotCheckoutableException(UUID orderId, LabStatus status) {
        super(
                ProblemKind.ORDER_NOT_CHECKOUTABLE,
                "Order " + orderId + " is " + status + "; only a CREATED order can be checked out");
        property("orderId", orderId);
        // not "status": RFC 9457 reserves that member for the HTTP status code
        property("orderStatus", status);
    }
}
