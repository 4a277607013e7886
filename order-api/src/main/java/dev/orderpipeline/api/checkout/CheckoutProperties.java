package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.RetryAfterSetting;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How checkout behaves.
 *
 * @param maxWait the longest {@code Prefer: wait} honoured; longer requests are cut to it
 * @param retryAfter what a 503 tells clients to wait before retrying, on every endpoint (a database failure outside
 *     checkout included)
 * @param maxWaiters how many checkouts of this instance may wait for their decision at once ({@code Prefer: wait});
 *     a wait holds no thread, but it holds its connection and Tomcat's buffers for the request, about 100 KB of heap
 *     each (docs/throughput.md), so 500 of them take a third of order-api's 160 MB. The bound keeps a worker outage
 *     from growing them without end. Beyond it a checkout answers 202 at once, without {@code Preference-Applied}
 */
@ConfigurationProperties("orderpipeline.checkout")
public record CheckoutProperties(
        @DefaultValue("30s") Duration maxWait,
        @DefaultValue("5s") Duration retryAfter,
        @DefaultValue("500") int maxWaiters)
        implements RetryAfterSetting {

    public CheckoutProperties {
        Objects.requireNonNull(maxWait, "maxWait");
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (maxWait.toSeconds() < 1) {
            throw new IllegalArgumentException("orderpipeline.checkout.max-wait must be at least 1s, was " + maxWait);
        }
        if (maxWaiters < 0) {
            throw new IllegalArgumentException(
                    "orderpipeline.checkout.max-waiters must not be negative, was " + maxWaiters);
        }
        if (retryAfter.toSeconds() < 1) {
            throw new IllegalArgumentException(
                    "orderpipeline.checkout.retry-after must be at least 1s, was " + retryAfter);
        }
    }
}
