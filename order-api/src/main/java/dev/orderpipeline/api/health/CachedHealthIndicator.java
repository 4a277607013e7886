package dev.orderpipeline.api.health;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * A health check that answers from its last result for a short time. Probes that arrive while the check runs wait
 * for that one check instead of starting their own (Caffeine computes a missing entry once), so a storm of probes
 * holds at most one database connection, and sends the broker at most one request, at a time.
 */
final class CachedHealthIndicator implements HealthIndicator {

    private final HealthIndicator delegate;
    private final Cache<Boolean, Health> result;

    CachedHealthIndicator(HealthIndicator delegate, Duration timeToLive) {
        this.delegate = delegate;
        this.result = Caffeine.newBuilder()
                .expireAfterWrite(timeToLive)
                .maximumSize(1)
                .build();
    }

    /** The last result, or a fresh one when it is older than the time to live; a check that gives none is UNKNOWN. */
    @Override
    public Health health() {
        return Objects.requireNonNull(result.get(Boolean.TRUE, ignored -> checked()), "health");
    }

    private Health checked() {
        var health = delegate.health();
        return health == null ? Health.unknown().build() : health;
    }

    @Override
    public String toString() {
        return "cached " + delegate;
    }
}
