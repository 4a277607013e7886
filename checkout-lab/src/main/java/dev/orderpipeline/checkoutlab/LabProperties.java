package dev.orderpipeline.checkoutlab;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Objects;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

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
@Validated
record LabProperties(
        @DefaultValue("false") boolean enabled,

        @DefaultValue("0ms") @DurationMin @DurationMax(millis = LabOptions.MAX_DELAY_MILLIS)
        Duration checkToWriteDelay,

        @DefaultValue("300") @Min(1) @Max(LabOptions.MAX_ATTEMPTS)
        int optimisticMaxAttempts,

        @DefaultValue("300") @Min(1) @Max(LabOptions.MAX_ATTEMPTS)
        int serializableMaxAttempts,

        @DefaultValue("10") @Min(1) @Max(LabOptions.MAX_ATTEMPTS)
        int cartMaxAttempts,

        @DefaultValue("5ms") @DurationMin Duration retryPause,
        @DefaultValue("1024") @Positive int appLockStripes,
        @DefaultValue("30s") @DurationMin(millis = 1) Duration appLockTimeout) {

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
}
