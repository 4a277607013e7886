package dev.orderpipeline.api.security;

import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Matches when a development key is set and none of the properties with which Spring Boot builds a production
 * decoder: the development key never competes with a real identity provider.
 */
final class DevelopmentKeyCondition extends SpringBootCondition {

    static final String KEY_PROPERTY = "orderpipeline.security.development-key";

    static final List<String> PRODUCTION_PROPERTIES = List.of(
            "spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
            "spring.security.oauth2.resourceserver.jwt.issuer-uri",
            "spring.security.oauth2.resourceserver.jwt.public-key-location");

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        var environment = context.getEnvironment();
        for (var property : PRODUCTION_PROPERTIES) {
            if (StringUtils.hasText(environment.getProperty(property))) {
                return ConditionOutcome.noMatch(property + " is set: tokens are verified with the identity provider");
            }
        }
        return StringUtils.hasText(environment.getProperty(KEY_PROPERTY))
                ? ConditionOutcome.match(KEY_PROPERTY + " is set and no identity provider is configured")
                : ConditionOutcome.noMatch(KEY_PROPERTY + " is not set");
    }
}
