package dev.orderpipeline.api.checkout;

import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the broker's health is checked.
 *
 * @param timeout how long a health check waits for the broker to describe its cluster before reporting it down
 */
@ConfigurationProperties("orderpipeline.health.broker")
@Validated
record BrokerHealthProperties(
        // the admin client takes it as an int of milliseconds
        @DefaultValue("2s") @DurationMin(millis = 1) @DurationMax(millis = Integer.MAX_VALUE)
        Duration timeout) {}
