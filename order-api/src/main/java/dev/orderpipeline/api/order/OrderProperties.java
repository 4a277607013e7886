package dev.orderpipeline.api.order;

import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How orders are placed.
 *
 * @param maxLines the most lines a request may list (before duplicate products are merged): a cart's checkout locks
 *     or reserves one product per line, so its size bounds the work one checkout can ask for
 * @param idempotencyKeyRetention how long an {@code Idempotency-Key} answers with the order it placed; after it, the
 *     key is forgotten (a request with it places a new order) and the retention job deletes it. Longer than any
 *     client retries, as payment APIs keep theirs
 * @param remembered how many recent single-product orders this instance keeps in memory ({@link KnownOrders}), so that
 *     a checkout of a product known sold out is refused without reading its order: at least the buyers of one flash
 *     sale on one instance (10,000 in the lab's), 184 bytes each (measured)
 */
@ConfigurationProperties("orderpipeline.orders")
@Validated
record OrderProperties(
        @DefaultValue("20") @Positive int maxLines,
        @DefaultValue("24h") @DurationMin(seconds = 1) Duration idempotencyKeyRetention,
        @DefaultValue("20000") @PositiveOrZero int remembered) {}
