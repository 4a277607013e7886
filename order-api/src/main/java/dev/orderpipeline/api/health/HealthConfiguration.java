package dev.orderpipeline.api.health;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.application.AvailabilityStateHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

@Configuration(proxyBeanMethods = false)
class HealthConfiguration {

    /**
     * Puts every health check behind a {@link CachedHealthIndicator}: the database's (Boot's {@code db}), the
     * broker's ({@code kafka}) and any other, whoever declares it. Not the liveness and readiness states: they are
     * in memory already, and a state change (the instance stopping) must reach the probes at once. Static, and bound
     * from the environment itself, as a post-processor is made before the beans it processes.
     */
    @Bean
    static BeanPostProcessor cachedHealthIndicators(Environment environment) {
        var properties = Binder.get(environment)
                .bindOrCreate(HealthCacheProperties.PREFIX, Bindable.of(HealthCacheProperties.class));
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (properties.cacheTime().isZero()
                        || !(bean instanceof HealthIndicator indicator)
                        || bean instanceof AvailabilityStateHealthIndicator
                        || bean instanceof CachedHealthIndicator) {
                    return bean;
                }
                return new CachedHealthIndicator(indicator, properties.cacheTime());
            }
        };
    }
}
