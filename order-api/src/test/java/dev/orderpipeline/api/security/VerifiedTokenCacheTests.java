package dev.orderpipeline.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

class VerifiedTokenCacheTests {

    private static final Duration MAX_AGE = Duration.ofMinutes(5);

    private final Instant now = Instant.parse("2026-01-01T12:00:00Z");

    /** Accepts tokens named "good-..." expiring at the given instant, refuses the rest; records what it verified. */
    private final class Verifier implements JwtDecoder {

        private final List<String> verified = new ArrayList<>();
        private final @Nullable Instant expiresAt;

        Verifier(@Nullable Instant expiresAt) {
            this.expiresAt = expiresAt;
        }

        @Override
        public Jwt decode(String token) {
            verified.add(token);
            if (!token.startsWith("good-")) {
                throw new BadJwtException("refused " + token);
            }
            return jwt(token, expiresAt);
        }
    }

    private static Jwt jwt(String token, @Nullable Instant expiresAt) {
        var builder = Jwt.withTokenValue(token)
                .header("alg", "HS256")
                .subject("alice")
                .issuedAt(Instant.parse("2026-01-01T11:00:00Z"));
        if (expiresAt != null) {
            builder.expiresAt(expiresAt);
        }
        return builder.build();
    }

    private VerifiedTokenCache cache(JwtDecoder decoder) {
        return new VerifiedTokenCache(decoder, 100, MAX_AGE, Clock.systemUTC());
    }

    @Test
    void verifiesEachDistinctTokenOnce() {
        var verifier = new Verifier(Instant.now().plus(Duration.ofHours(1)));
        var cache = cache(verifier);

        var first = cache.decode("good-a");
        var again = cache.decode("good-a");
        cache.decode("good-b");

        assertThat(again).isSameAs(first);
        assertThat(verifier.verified).containsExactly("good-a", "good-b");
    }

    @Test
    void verifiesARefusedTokenAgainEveryTime() {
        var verifier = new Verifier(Instant.now().plus(Duration.ofHours(1)));
        var cache = cache(verifier);

        assertThatThrownBy(() -> cache.decode("forged")).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> cache.decode("forged")).isInstanceOf(BadJwtException.class);

        assertThat(verifier.verified).containsExactly("forged", "forged");
    }

    @Test
    void keepsNoTokenThatHasExpiredEvenWhenTheDecoderStillAcceptsIt() {
        // a decoder with clock skew accepts a token shortly after its expiry
        var verifier = new Verifier(Instant.now().minusSeconds(10));
        var cache = cache(verifier);

        cache.decode("good-late");
        cache.decode("good-late");

        assertThat(verifier.verified).containsExactly("good-late", "good-late");
    }

    @Test
    void keepsATokenUntilItExpiresOrForTheMaximumAgeWhicheverComesFirst() {
        assertThat(VerifiedTokenCache.keepFor(jwt("t", now.plusSeconds(30)), MAX_AGE, now))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(VerifiedTokenCache.keepFor(jwt("t", now.plus(Duration.ofHours(1))), MAX_AGE, now))
                .isEqualTo(MAX_AGE);
        assertThat(VerifiedTokenCache.keepFor(jwt("t", now.minusSeconds(1)), MAX_AGE, now))
                .isEqualTo(Duration.ZERO);
        assertThat(VerifiedTokenCache.keepFor(jwt("t", null), MAX_AGE, now)).isEqualTo(MAX_AGE);
    }

    @Test
    void verifiesAgainOnceTheMaximumAgeHasPassed() {
        var verifier = new Verifier(Instant.now().plus(Duration.ofHours(1)));
        var cache = new VerifiedTokenCache(verifier, 100, Duration.ofMillis(200), Clock.systemUTC());

        cache.decode("good-a");

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            cache.decode("good-a");
            assertThat(verifier.verified).hasSizeGreaterThanOrEqualTo(2);
        });
    }

    @Test
    void holdsAtMostItsSizeOfTokens() {
        var verifier = new Verifier(Instant.now().plus(Duration.ofHours(1)));
        var cache = new VerifiedTokenCache(verifier, 10, MAX_AGE, Clock.systemUTC());

        for (var round = 0; round < 2; round++) {
            for (var i = 0; i < 1_000; i++) {
                cache.decode("good-" + i);
            }
        }

        // most of the second round was verified again: the cache kept no more than a few of a thousand
        assertThat(verifier.verified).hasSizeGreaterThan(1_500);
    }
}
