package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.time.Duration;
import java.util.UUID;
import org.springframework.http.HttpHeaders;

/**
 * The command was handed to the producer, which gave up waiting for the broker's acknowledgement: the broker may have
 * appended it, and the worker may decide the order, or not. Unlike {@link BrokerUnavailableException}, the order may
 * change; what is safe either way is to check out again (the same command, applied once) or to read the order.
 */
final class CheckoutOutcomeUnknownException extends ProblemException {

    CheckoutOutcomeUnknownException(UUID orderId, Duration retryAfter, Throwable cause) {
        super(
                ProblemKind.CHECKOUT_OUTCOME_UNKNOWN,
                "The message broker did not confirm the checkout of order " + orderId + " in time, and may still"
                        + " have taken it. Retry the same checkout after Retry-After (it is idempotent: the order is"
                        + " decided once), or read the order at /api/orders/" + orderId + " to see whether it was"
                        + " decided; do not place a new order for it.",
                cause);
        property("orderId", orderId);
        getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter.toSeconds()));
    }
}
