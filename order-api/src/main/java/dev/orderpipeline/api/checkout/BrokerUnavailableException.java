package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.time.Duration;
import java.util.UUID;
import org.springframework.http.HttpHeaders;

/** The broker did not acknowledge a command in time; nothing was changed, so the client may simply retry. */
final class BrokerUnavailableException extends ProblemException {

    BrokerUnavailableException(UUID orderId, Duration retryAfter, Throwable cause) {
        super(
                ProblemKind.BROKER_UNAVAILABLE,
                "The checkout of order " + orderId + " could not be handed to the message broker; "
                        + "the order is unchanged, retry later",
                cause);
        property("orderId", orderId);
        getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter.toSeconds()));
    }
}
