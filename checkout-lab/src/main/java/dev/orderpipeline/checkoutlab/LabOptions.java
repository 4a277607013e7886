package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A lab checkout's knobs, from its request.
 *
 * @param checkToWriteDelay the pause between a strategy's read (or lock) and its write, standing for a slow payment
 *     or reward call, or {@code null} for the configured one; strategies that do not read before writing ignore it
 * @param maxAttempts the retry limit of a retrying strategy (optimistic, serializable), or {@code null} for the
 *     configured one; other strategies ignore it
 */
record LabOptions(
        @Nullable Duration checkToWriteDelay, @Nullable Integer maxAttempts) {

    /** The longest check-to-write delay a request may ask for, in milliseconds. */
    static final int MAX_DELAY_MILLIS = 10_000;

    /** The highest retry limit a request may ask for. */
    static final int MAX_ATTEMPTS = 10_000;

    LabOptions {
        if (checkToWriteDelay != null
                && (checkToWriteDelay.isNegative() || checkToWriteDelay.toMillis() > MAX_DELAY_MILLIS)) {
            throw new IllegalArgumentException(
                    "checkToWriteDelay must be 0 to " + MAX_DELAY_MILLIS + " ms, was " + checkToWriteDelay);
        }
        if (maxAttempts != null && (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS)) {
            throw new IllegalArgumentException("maxAttempts must be 1 to " + MAX_ATTEMPTS + ", was " + maxAttempts);
        }
    }

    /** The configured knobs. */
    static LabOptions defaults() {
        return new LabOptions(null, null);
    }
}
