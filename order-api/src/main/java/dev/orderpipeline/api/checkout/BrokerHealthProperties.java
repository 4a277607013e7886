package dev.orderpipeline.api.checkout;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the broker's health is checked.
 *
 * @param timeout how long a health check waits for the broker to describe its cluster before reporting it down
 */
@ConfigurationProperties("orderpipeline.health.broker")
record BrokerHealthProperties(@DefaultValue("2s") Duration timeout) {

    BrokerHealthProperties {
        Objects.requireNonNull(timeout, "timeout");
        if (!timeout.isPositive() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("orderpipeline.health.broker.timeout must be positive, was " + timeout);
        }
    }
}
