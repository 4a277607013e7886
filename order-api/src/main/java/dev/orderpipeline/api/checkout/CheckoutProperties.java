package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.RetryAfterSetting;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How checkout behaves.
 *
 * @param maxWait the longest {@code Prefer: wait} honoured; longer requests are cut to it
 * @param retryAfter what a 503 tells clients to wait before retrying, on every endpoint (a database failure outside
 *     checkout included)
 * @param maxWaiters how many checkouts of this instance may wait for their decision at once ({@code Prefer: wait});
 *     a wait holds no thread, but it holds its connection and Tomcat's buffers for the request, about 100 KB of heap
 *     each (docs/throughput.md). The bound keeps a worker outage from growing them without end, and leaves half of
 *     {@code server.tomcat.max-connections} (200) to the requests that do not wait. Beyond it a checkout answers 202 at once, without {@code Preference-Applied}
 * @param soldOutFor how long a stock the worker published says "sold out" at the door: a checkout of a
 *     single-product order asking more than that stock is answered 409 {@code sold-out} without a command. Past it,
 *     one checkout goes to the worker, whose answer publishes the stock again; so a restock reopens the product
 *     within it. 0 switches the door off
 */
@ConfigurationProperties("orderpipeline.checkout")
@Validated
public record CheckoutProperties(
        @DefaultValue("30s") @DurationMin(seconds = 1) Duration maxWait,
        @DefaultValue("5s") @DurationMin(seconds = 1) Duration retryAfter,
        @DefaultValue("100") @PositiveOrZero int maxWaiters,
        @DefaultValue("2s") @DurationMin(millis = 0) Duration soldOutFor)
        implements RetryAfterSetting {}
