package dev.orderpipeline.api.security;

/** Thrown at startup when nothing is configured to verify bearer tokens with: the API never runs open. */
final class MissingTokenKeyException extends IllegalStateException {

    MissingTokenKeyException() {
        super("No key to verify bearer tokens with: set spring.security.oauth2.resourceserver.jwt.jwk-set-uri"
                + " (production) or " + DevelopmentKeyCondition.KEY_PROPERTY + " (local run and tests)");
    }
}
