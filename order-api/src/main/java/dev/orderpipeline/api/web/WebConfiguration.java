package dev.orderpipeline.api.web;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final RequestLimits limits;

    WebConfiguration(RequestLimits limits) {
        this.limits = limits;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new CallerArgumentResolver());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new RequestBodyGuard(limits));
    }

    /** Before the bound on requests in progress, so that its refusals close crowded connections too. */
    @Bean
    FilterRegistrationBean<CrowdedConnectionsFilter> crowdedConnections(
            OpenConnections openConnections, MeterRegistry meters) {
        var registration = new FilterRegistrationBean<>(
                new CrowdedConnectionsFilter(openConnections, limits.keepAliveBelow(), meters));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }

    /** After the request's observation (a refusal is counted as a 503), before the security filters' work. */
    @Bean
    FilterRegistrationBean<ConcurrencyLimitFilter> concurrencyLimit(
            RetryAfterSetting retryAfter, MeterRegistry meters) {
        var registration =
                new FilterRegistrationBean<>(new ConcurrencyLimitFilter(limits.maxConcurrent(), retryAfter, meters));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }
}
