package dev.orderpipeline.worker.cart;

import java.util.Objects;

/**
 * A delivered message that cannot be applied (it does not match its order or line, or applying it fails for a reason
 * retrying will not cure); it goes to its topic's dead-letter topic.
 *
 * @param delivery the delivery
 * @param reason a short text for the dead-letter reason header
 */
record InvalidDelivery(Delivery<?> delivery, String reason) {

    InvalidDelivery {
        Objects.requireNonNull(delivery, "delivery");
        Objects.requireNonNull(reason, "reason");
    }
}
