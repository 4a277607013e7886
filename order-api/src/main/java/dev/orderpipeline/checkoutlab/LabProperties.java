package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The lab's part of order-api: off unless {@code enabled}, and then the knobs of its database-lock strategies. A
 * request may override the delay and the retry limits ({@link LabOptions}).
 *
 * @param enabled whether the lab's strategies and endpoints exist at all ({@link LabAutoConfiguration}); only the
 *     lab's own stack and {@code bin/run --lab} switch it on
 * @param checkToWriteDelay pause between a strategy's read (or lock) and its write, standing for a slow payment or
 *     reward call; 0 in production, set by the lab and tests to reproduce races deterministically
 * @param optimisticMaxAttempts attempts of the optimistic strategy before it rejects with
 *     OPTIMISTIC_RETRIES_EXHAUSTED; high enough that 300 buyers of one product all get a real answer
 * @param serializableMaxAttempts attempts of the serializable strategy before it rejects with
 *     SERIALIZATION_RETRIES_EXHAUSTED
 * @param cartMaxAttempts attempts of the cart strategies before they reject with DEADLOCK_RETRIES_EXHAUSTED; each
 *     deadlock costs PostgreSQL's {@code deadlock_timeout} (1 s by default) before one victim is aborted
 * @param retryPause upper bound of the random pause before a retry, so that losers do not collide again in step
 * @param appLockStripes locks of the app-lock strategy; products share them by id hash, so memory stays bounded
 *     however many products there are
 * @param appLockTimeout how long the app-lock strategy waits for its product's lock before answering 503
 */
@ConfigurationProperties("orderpipeline.lab")
record LabProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue("0ms") Duration checkToWriteDelay,
        @DefaultValue("300") int optimisticMaxAttempts,
        @DefaultValue("300") int serializableMaxAttempts,
        @DefaultValue("10") int cartMaxAttempts,
        @DefaultValue("5ms") Duration retryPause,
        @DefaultValue("1024") int appLockStripes,
        @DefaultValue("30s") Duration appLockTimeout) {

    LabProperties {
        Objects.requireNonNull(checkToWriteDelay, "checkToWriteDelay");
        Objects.requireNonNull(retryPause, "retryPause");
        Objects.requireNonNull(appLockTimeout, "appLockTimeout");
        if (checkToWriteDelay.isNegative() || checkToWriteDelay.toMillis() > LabOptions.MAX_DELAY_MILLIS) {
            throw new IllegalArgumentException("orderpipeline.lab.check-to-write-delay must be 0 to "
                    + LabOptions.MAX_DELAY_MILLIS + " ms, was " + checkToWriteDelay);
        }
        requireAttempts("optimistic-max-attempts", optimisticMaxAttempts);
        requireAttempts("serializable-max-attempts", serializableMaxAttempts);
        requireAttempts("cart-max-attempts", cartMaxAttempts);
        if (retryPause.isNegative()) {
            throw new IllegalArgumentException("orderpipeline.lab.retry-pause must not be negative, was " + retryPause);
        }
        if (appLockStripes < 1) {
            throw new IllegalArgumentException(
                    "orderpipeline.lab.app-lock-stripes must be positive, was " + appLockStripes);
        }
        if (!appLockTimeout.isPositive()) {
            throw new IllegalArgumentException(
                    "orderpipeline.lab.app-lock-timeout must be positive, was " + appLockTimeout);
        }
    }

    /** The delay this request runs with. */
    Duration delay(LabOptions options) {
        return Objects.requireNonNullElse(options.checkToWriteDelay(), checkToWriteDelay);
    }

    int optimisticAttempts(LabOptions options) {
        return Objects.requireNonNullElse(options.maxAttempts(), optimisticMaxAttempts);
    }

    int serializableAttempts(LabOptions options) {
        return Objects.requireNonNullElse(options.maxAttempts(), serializableMaxAttempts);
    }

    int cartAttempts(LabOptions options) {
        return Objects.requireNonNullElse(options.maxAttempts(), cartMaxAttempts);
    }

    private static void requireAttempts(String name, int attempts) {
        if (attempts < 1 || attempts > LabOptions.MAX_ATTEMPTS) {
            throw new IllegalArgumentException(
                    "orderpipeline.lab." + name + " must be 1 to " + LabOptions.MAX_ATTEMPTS + ", was " + attempts);
        }
    }
}
