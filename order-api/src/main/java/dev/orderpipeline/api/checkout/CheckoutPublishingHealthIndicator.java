package dev.orderpipeline.api.checkout;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code checkoutPublishing} health component, in the readiness group: OUT_OF_SERVICE until the producer knows
 * the partitions of the topics checkouts are published to ({@link CheckoutPublishing}), UP from then on, whatever
 * becomes of the broker.
 */
@Component("checkoutPublishingHealthIndicator")
final class CheckoutPublishingHealthIndicator implements HealthIndicator {

    private final CheckoutPublishing publishing;

    CheckoutPublishingHealthIndicator(CheckoutPublishing publishing) {
        this.publishing = publishing;
    }

    @Override
    public Health health() {
        var health = publishing.ready() ? Health.up() : Health.outOfService();
        return health.withDetail("topics", CheckoutPublishing.TOPICS).build();
    }
}
