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
 */
@ConfigurationProperties("orderpipeline.requests")
record RequestLimits(
        @DefaultValue("16KB") DataSize maxBodySize,
        @DefaultValue("32") int maxJsonNestingDepth,
        @DefaultValue("100") int maxJsonNumberLength) {

    RequestLimits {
        Objects.requireNonNull(maxBodySize, "maxBodySize");
        if (maxBodySize.toBytes() < 1) {
            throw new IllegalArgumentException(
                    "orderpipeline.requests.max-body-size must be positive, was " + maxBodySize);
        }
        if (maxJsonNestingDepth < 1 || maxJsonNumberLength < 1) {
            throw new IllegalArgumentException("orderpipeline.requests.max-json-* must be positive, was "
                    + maxJsonNestingDepth + " and " + maxJsonNumberLength);
        }
    }
}
