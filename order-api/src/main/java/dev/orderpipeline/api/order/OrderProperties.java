package dev.orderpipeline.api.order;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How orders are placed.
 *
 * @param maxLines the most lines a request may list (before duplicate products are merged): a cart's checkout locks
 *     or reserves one product per line, so its size bounds the work one checkout can ask for
 * @param idempotencyKeyRetention how long an {@code Idempotency-Key} answers with the order it placed; after it, the
 *     key is forgotten (a request with it places a new order) and the retention job deletes it. Longer than any
 *     client retries, as payment APIs keep theirs
 */
@ConfigurationProperties("orderpipeline.orders")
record OrderProperties(
        @DefaultValue("20") int maxLines,
        @DefaultValue("24h") Duration idempotencyKeyRetention) {

    OrderProperties {
        Objects.requireNonNull(idempotencyKeyRetention, "idempotencyKeyRetention");
        if (idempotencyKeyRetention.toSeconds() < 1) {
            throw new IllegalArgumentException(
                    "orderpipeline.orders.idempotency-key-retention must be at least 1s, was "
                            + idempotencyKeyRetention);
        }
        if (maxLines < 1) {
            throw new IllegalArgumentException("orderpipeline.orders.max-lines must be positive, was " + maxLines);
        }
    }
}
