package dev.orderpipeline.api.strategy;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.time.Duration;
import java.util.UUID;
import org.springframework.http.HttpHeaders;

/** The checkout waited too long for its product's turn; nothing was changed, so the client may retry. */
final class CheckoutBusyException extends ProblemException {

    CheckoutBusyException(UUID orderId, UUID productId, Duration waited, Duration retryAfter) {
        super(
                ProblemKind.CHECKOUT_BUSY,
                "The checkout of order " + orderId + " waited " + waited.toMillis()
                        + " ms for other checkouts of its product; the order is unchanged, retry later");
        property("orderId", orderId);
        property("productId", productId);
        getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
    }
}
