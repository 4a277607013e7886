package dev.orderpipeline.api.checkout;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What the client asked for beyond the order itself.
 *
 * @param preferredWait how long the client is willing to wait for the decision of an asynchronous strategy
 *     ({@code Prefer: wait}, already capped), or {@code null} to answer as soon as the checkout is accepted
 * @param checkToWriteDelay the lab's pause between a strategy's read (or lock) and its write, standing for a slow
 *     payment or reward call, or {@code null} for the configured one; strategies that do not read before writing
 *     ignore it
 * @param maxAttempts the retry limit of a retrying strategy (optimistic, serializable), or {@code null} for the
 *     configured one; other strategies ignore it
 */
public record CheckoutOptions(
        @Nullable Duration preferredWait,
        @Nullable Duration checkToWriteDelay,
        @Nullable Integer maxAttempts) {

    /** The longest check-to-write delay a request may ask for, in milliseconds. */
    public static final int MAX_DELAY_MILLIS = 10_000;

    /** The highest retry limit a request may ask for. */
    public static final int MAX_ATTEMPTS = 10_000;

    public CheckoutOptions {
        if (preferredWait != null && !preferredWait.isPositive()) {
            throw new IllegalArgumentException("preferredWait must be positive, was " + preferredWait);
        }
        if (checkToWriteDelay != null
                && (checkToWriteDelay.isNegative() || checkToWriteDelay.toMillis() > MAX_DELAY_MILLIS)) {
            throw new IllegalArgumentException(
                    "checkToWriteDelay must be 0 to " + MAX_DELAY_MILLIS + " ms, was " + checkToWriteDelay);
        }
        if (maxAttempts != null && (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS)) {
            throw new IllegalArgumentException("maxAttempts must be 1 to " + MAX_ATTEMPTS + ", was " + maxAttempts);
        }
    }

    /** Only a wait preference; the lab's knobs at their configured values. */
    public CheckoutOptions(@Nullable Duration preferredWait) {
        this(preferredWait, null, null);
    }

    /** Default options: no wait, configured lab knobs. */
    public static CheckoutOptions defaults() {
        return new CheckoutOptions(null, null, null);
    }
}
