package dev.orderpipeline.api.web;

import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

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
 *     Retry-After} at once ({@link ConcurrencyLimitFilter}). A request in progress holds about 60 KB of heap when it
 *     waits on a dependency, so the default keeps a worst case near 25 MB of order-api's 160 MB
 */
@ConfigurationProperties("orderpipeline.requests")
record RequestLimits(
        @DefaultValue("16KB") DataSize maxBodySize,
        @DefaultValue("32") int maxJsonNestingDepth,
        @DefaultValue("100") int maxJsonNumberLength,
        @DefaultValue("400") int maxConcurrent) {

    RequestLimits {
        Objects.requireNonNull(maxBodySize, "maxBodySize");
        if (maxBodySize.toBytes() < 1) {
            throw new IllegalArgumentException(
                    "orderpipeline.requests.max-body-size must be positive, was " + maxBodySize);
        }
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException(
                    "orderpipeline.requests.max-concurrent must be positive, was " + maxConcurrent);
        }
        if (maxJsonNestingDepth < 1 || maxJsonNumberLength < 1) {
            throw new IllegalArgumentException("orderpipeline.requests.max-json-* must be positive, was "
                    + maxJsonNestingDepth + " and " + maxJsonNumberLength);
        }
    }
}
