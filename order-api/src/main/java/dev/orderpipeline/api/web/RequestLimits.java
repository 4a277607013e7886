package dev.orderpipeline.api.web;

import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * How much of a request the API is willing to read. The largest valid body (a product with a 200-character name)
 * is well under a kilobyte, so the limits only ever stop abuse: a client streaming megabytes, or JSON built to make
 * the parser work (deep nesting, thousand-digit numbers).
 *
 * @param maxBodySize larger bodies are answered 413 without being read; a declared {@code Content-Length} over it
 *     is refused before the handler runs, a chunked body as soon as it grows past it
 * @param maxJsonNestingDepth deepest nesting of JSON arrays and objects read
 * @param maxJsonNumberLength longest JSON number read, in characters
 * @param maxConcurrent requests served at once (the actuator's not counted); more are answered 503 with {@code
 *     Retry-After} at once ({@link ConcurrencyLimitFilter}). A request in progress holds about 100 KB of heap, so the
 *     default keeps a worst case near 20 MB of order-api's 160 MB. It is as many as {@code
 *     server.tomcat.max-connections} (200), so that a burst waits in the kernel's accept queue rather than being
 *     shed; it bites when the connections are raised above it
 * @param keepAliveBelow open connections above which every answer closes its connection ({@link
 *     CrowdedConnectionsFilter}), so that a crowd of one-request clients (a flash sale) frees
 *     {@code server.tomcat.max-connections} places for the buyers waiting in the accept queue instead of holding them
 *     idle for the keep-alive timeout; half the connections, so that kept-alive clients never hold them all
 */
@ConfigurationProperties("orderpipeline.requests")
@Validated
record RequestLimits(
        @DefaultValue("16KB") DataSize maxBodySize,
        @DefaultValue("32") @Positive int maxJsonNestingDepth,
        @DefaultValue("100") @Positive int maxJsonNumberLength,
        @DefaultValue("200") @Positive int maxConcurrent,
        @DefaultValue("100") @Positive int keepAliveBelow) {

    /** Bean Validation has no constraint for a {@link DataSize}; binding gives it its default when not set. */
    RequestLimits {
        if (maxBodySize.toBytes() < 1) {
            throw new IllegalArgumentException(
                    "orderpipeline.requests.max-body-size must be positive, was " + maxBodySize);
        }
    }
}
