package dev.orderpipeline.worker.checkout;

import java.util.Objects;

/**
 * A delivered command that cannot be applied (it does not match its order, or applying it fails for a reason that
 * retrying will not cure); it goes to the dead-letter topic.
 *
 * @param delivery the delivered command
 * @param reason a short text for the dead-letter reason header
 */
record InvalidCommand(CheckoutDelivery delivery, String reason) {

    InvalidCommand {
        Objects.requireNonNull(delivery, "delivery");
        Objects.requireNonNull(reason, "reason");
    }
}
