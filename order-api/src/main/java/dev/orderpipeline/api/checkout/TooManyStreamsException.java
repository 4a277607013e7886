package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.time.Duration;
import org.springframework.http.HttpHeaders;

/** {@code orderpipeline.checkout.events.max-streams} streams are open already; nothing was opened for this one. */
final class TooManyStreamsException extends ProblemException {

    TooManyStreamsException(int maxStreams, Duration retryAfter) {
        super(
                ProblemKind.OVERLOADED,
                "This instance streams " + maxStreams + " orders' events already; retry after Retry-After, or poll"
                        + " the order");
        getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
    }
}
