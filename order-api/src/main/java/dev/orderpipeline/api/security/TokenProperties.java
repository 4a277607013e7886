package dev.orderpipeline.api.security;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.PositiveOrZero;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How bearer tokens are read, and verified when no identity provider is configured. Production sets Spring Boot's
 * {@code spring.security.oauth2.resourceserver.jwt.jwk-set-uri} (with {@code audiences}, required, and {@code
 * issuer-uri} to check those claims) and leaves the development settings alone; a development key is ignored as
 * soon as one of Boot's is set.
 *
 * @param developmentKey an HS256 key of at least 32 bytes, for the local run and the tests, which mint their own
 *     tokens with it; anyone who knows it can call the API as anyone, so it never guards real data
 * @param developmentIssuer the {@code iss} that tokens signed with the development key must carry
 * @param rolesClaim the claim holding the caller's roles as an array of names, whichever key verified the token;
 *     identity providers name it differently ({@code roles}, {@code groups}, a namespaced URI)
 * @param verifiedTokens how many distinct tokens, once verified, are kept so that they are not verified again with
 *     every request ({@link VerifiedTokenCache}); 0 verifies every request's token
 * @param verifiedTokenMaxAge how long a verified token is kept at most (and never past its expiry): how soon a key
 *     removed from the identity provider's JWK set stops the tokens it signed
 */
@ConfigurationProperties("orderpipeline.security")
@Validated
record TokenProperties(
        @Nullable String developmentKey,

        @DefaultValue("order-pipeline-development") @NotBlank
        String developmentIssuer,

        @DefaultValue("roles") @NotBlank String rolesClaim,
        @DefaultValue("2048") @PositiveOrZero int verifiedTokens,
        @DefaultValue("5m") @DurationMin(millis = 1) Duration verifiedTokenMaxAge) {

    static final int MIN_KEY_BYTES = 32;

    /** The key's length counts in UTF-8 bytes, which no standard constraint measures. */
    TokenProperties {
        if (developmentKey != null && developmentKey.isBlank()) {
            developmentKey = null;
        }
        if (developmentKey != null && developmentKey.getBytes(StandardCharsets.UTF_8).length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("orderpipeline.security.development-key must have at least "
                    + MIN_KEY_BYTES + " bytes (HS256 needs a 256-bit key)");
        }
    }
}
