package dev.orderpipeline.api.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says plainly, instead of with a stack trace, that the API refused to accept tokens meant for other applications. */
final class MissingTokenAudienceFailureAnalyzer extends AbstractFailureAnalyzer<MissingTokenAudienceException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, MissingTokenAudienceException cause) {
        return new FailureAnalysis(
                "order-api verifies bearer tokens with an identity provider (" + cause.providerProperty()
                        + " is set) but has no audience to require, so it would accept tokens the provider issued"
                        + " for any other application; it will not start that way.",
                "Set " + MissingTokenAudienceException.AUDIENCES_PROPERTY
                        + " (environment variable SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_AUDIENCES) to the"
                        + " audience the identity provider puts in the aud claim of tokens for this API, e.g. its"
                        + " client id or API identifier; several may be given, separated by commas.",
                cause);
    }
}
