package dev.orderpipeline.worker.cart;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

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
record CartProperties(
        @DefaultValue("30s") Duration reservationTimeout,
        @DefaultValue("1s") Duration sweepInterval,
        @DefaultValue("100") int sweepBatch,
        @DefaultValue("30s") Duration releaseResendAfter) {

    CartProperties {
        Objects.requireNonNull(reservationTimeout, "reservationTimeout");
        Objects.requireNonNull(sweepInterval, "sweepInterval");
        Objects.requireNonNull(releaseResendAfter, "releaseResendAfter");
        if (!reservationTimeout.isPositive() || !sweepInterval.isPositive() || !releaseResendAfter.isPositive()) {
            throw new IllegalArgumentException("orderpipeline.carts durations must be positive");
        }
        if (sweepBatch <= 0) {
            throw new IllegalArgumentException("orderpipeline.carts.sweep-batch must be positive");
        }
    }
}
