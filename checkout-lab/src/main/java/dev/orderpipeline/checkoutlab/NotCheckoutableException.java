package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.UUID;

/** The order is claimed (PROCESSING) or decided; only a CREATED one checks out. The same problem as production's. */
final class NotCheckoutableException extends ProblemException {

    NotCheckoutableException(UUID orderId, LabStatus status) {
        this(orderId, status, "Order " + orderId + " is " + status + "; only a CREATED order can be checked out");
    }

    private NotCheckoutableException(UUID orderId, LabStatus status, String detail) {
        super(ProblemKind.ORDER_NOT_CHECKOUTABLE, detail);
        property("orderId", orderId);
        // not "status": RFC 9457 reserves that member for the HTTP status code
        property("orderStatus", status);
    }

    /** A CREATED cart some of whose lines the pipeline's saga has reserved (or decided) already. */
    static NotCheckoutableException inPipeline(UUID orderId) {
        return new NotCheckoutableException(
                orderId,
                LabStatus.CREATED,
                "Order " + orderId + " is being checked out by the pipeline: not every line is PENDING any more");
    }
}
