package dev.orderpipeline.api.web;

import java.time.Duration;
import org.springframework.http.HttpHeaders;

/**
 * The database failed while answering: the connection or the pool gave out, a statement was refused, a lock or
 * serialization conflict outlived its retries. Answered with 503 and a {@code Retry-After}, because it is not the
 * client's fault and a 500 would say the API has a bug.
 */
public final class DatabaseUnavailableException extends ProblemException {

    public DatabaseUnavailableException(String detail, Duration retryAfter, Throwable cause) {
        super(ProblemKind.DATABASE_UNAVAILABLE, detail, cause);
        getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
    }

    /** Adds an extra member to the problem body. */
    public DatabaseUnavailableException with(String name, Object value) {
        property(name, value);
        return this;
    }
}
