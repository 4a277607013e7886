package dev.orderpipeline.api.checkout;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What the client asked for beyond the order itself.
 *
 * @param preferredWait how long the client is willing to wait for the decision of an asynchronous strategy
 *     ({@code Prefer: wait}, already capped), or {@code null} to answer as soon as the checkout is accepted
 */
public record CheckoutOptions(@Nullable Duration preferredWait) {

    public CheckoutOptions {
        if (preferredWait != null && !preferredWait.isPositive()) {
            throw new IllegalArgumentException("preferredWait must be positive, was " + preferredWait);
        }
    }
}
