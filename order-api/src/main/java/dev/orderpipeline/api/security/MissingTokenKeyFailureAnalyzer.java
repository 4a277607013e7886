package dev.orderpipeline.api.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says plainly, instead of with a stack trace, that the API refused to start without a way to verify tokens. */
final class MissingTokenKeyFailureAnalyzer extends AbstractFailureAnalyzer<MissingTokenKeyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, MissingTokenKeyException cause) {
        return new FailureAnalysis(
                "order-api has no key to verify bearer tokens with, and will not run without authentication.",
                "In production set spring.security.oauth2.resourceserver.jwt.jwk-set-uri (environment variable"
                        + " SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWK_SET_URI) to the identity provider's JWK set,"
                        + " with issuer-uri and audiences to check those claims. For a local run set "
                        + DevelopmentKeyCondition.KEY_PROPERTY
                        + " (ORDERPIPELINE_SECURITY_DEVELOPMENT_KEY) to a development key of at least 32 bytes;"
                        + " bin/run does that, and bin/lab token mints tokens with it.",
                cause);
    }
}
