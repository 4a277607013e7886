package dev.orderpipeline.worker.cart;

import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the cart saga waits.
 *
 * @param reservationTimeout how long a cart's saga waits for all its reservations, from the moment the coordinator
 *     starts it; then it is rejected with RESERVATION_TIMEOUT and what was reserved is released
 * @param sweepInterval pause between two runs of the timeout sweeper on this instance
 * @param sweepBatch most orders (and most stale releases) one sweep takes on, so one sweep stays a short transaction
 * @param releaseResendAfter how long a line may stay RELEASING before the sweeper sends its release again (one lost
 *     between the coordinator's commit and its publish)
 */
@ConfigurationProperties("orderpipeline.carts")
@Validated
record CartProperties(
        @DefaultValue("30s") @DurationMin(millis = 1) Duration reservationTimeout,
        @DefaultValue("1s") @DurationMin(millis = 1) Duration sweepInterval,
        @DefaultValue("100") @Positive int sweepBatch,
        @DefaultValue("30s") @DurationMin(millis = 1) Duration releaseResendAfter) {}
