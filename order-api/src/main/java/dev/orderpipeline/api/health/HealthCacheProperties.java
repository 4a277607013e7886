package dev.orderpipeline.api.health;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long health results are kept.
 *
 * <p>Bound by {@link HealthConfiguration}'s post-processor, which is made before Boot binds and validates properties,
 * so it checks itself; {@code @ConfigurationProperties} is there for the configuration metadata (and makes it an
 * unused bean as well).
 *
 * @param cacheTime how long a health check's result answers every probe before the check runs again: a probe storm
 *     then costs the database one connection and the broker one request per this time, and a change of health is
 *     seen this much later at most. 0 runs every check for every probe.
 */
@ConfigurationProperties(HealthCacheProperties.PREFIX)
record HealthCacheProperties(@DefaultValue("1s") Duration cacheTime) {

    static final String PREFIX = "orderpipeline.health";

    HealthCacheProperties {
        Objects.requireNonNull(cacheTime, "cacheTime");
        if (cacheTime.isNegative()) {
            throw new IllegalArgumentException(
                    "orderpipeline.health.cache-time must not be negative, was " + cacheTime);
        }
    }
}
