package dev.orderpipeline.api.security;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.TestTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The production set-up: tokens of an identity provider, verified with the keys its JWK set URI serves (a server of
 * this test), with the issuer and the audience checked. The development key the tests configure is then ignored.
 */
class IdentityProviderTokensTests extends ApiTestSupport {

    private static final String ISSUER = "https://issuer.example.test/";
    private static final String AUDIENCE = "order-api";

    private static final RSAKey KEY = rsaKey("provider-key");
    private static final RSAKey OTHER_KEY = rsaKey("provider-key");
    private static final HttpServer JWKS = jwkSetServer();

    @DynamicPropertySource
    static void identityProvider(DynamicPropertyRegistry registry) {
        registry.add(
                "spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
                () -> "http://127.0.0.1:" + JWKS.getAddress().getPort() + "/jwks");
        registry.add("spring.security.oauth2.resourceserver.jwt.issuer-uri", () -> ISSUER);
        registry.add("spring.security.oauth2.resourceserver.jwt.audiences", () -> AUDIENCE);
    }

    @AfterAll
    static void stopJwkSetServer() {
        JWKS.stop(0);
    }

    @Test
    void acceptsTheProvidersTokensWithTheUserAsSubjectAndItsRoles() {
        var client = ApiClient.anonymous(port());
        var alice = "alice-" + UUID.randomUUID();
        var product = client.post(
                "/api/products",
                "{\"name\": \"Provider product\", \"stock\": 3, \"price\": 2}",
                AUTHORIZATION,
                bearer(KEY, "ops-" + UUID.randomUUID(), ISSUER, AUDIENCE, List.of("admin")));
        assertThat(product.status()).as(product::toString).isEqualTo(201);

        var order = client.post(
                "/api/orders",
                "{\"productId\": \"" + product.json().get("id").asString() + "\", \"quantity\": 1}",
                AUTHORIZATION,
                bearer(KEY, alice, ISSUER, AUDIENCE, List.of()));

        assertThat(order.status()).as(order::toString).isEqualTo(201);
        assertThat(order.json().get("userId").asString()).isEqualTo(alice);
    }

    @Test
    void refusesTokensTheProviderDidNotIssueForThisApi() {
        var client = ApiClient.anonymous(port());
        var path = "/api/orders/" + UUID.randomUUID();
        var refused = List.of(
                // the development key is not a key of the provider
                TestTokens.bearer("alice"),
                bearer(OTHER_KEY, "alice", ISSUER, AUDIENCE, List.of()),
                bearer(KEY, "alice", "https://elsewhere.example.test/", AUDIENCE, List.of()),
                bearer(KEY, "alice", ISSUER, "another-api", List.of()));
        for (var token : refused) {
            var response = client.get(path, AUTHORIZATION, token);
            assertThat(response.status()).as(response::toString).isEqualTo(401);
            assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:invalid-token");
        }
        assertThat(client.get(path, AUTHORIZATION, bearer(KEY, "alice", ISSUER, AUDIENCE, List.of()))
                        .status())
                .isEqualTo(404);
    }

    private static String bearer(RSAKey key, String subject, String issuer, String audience, List<String> roles) {
        var now = Instant.now();
        var claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(audience)
                .subject(subject)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300)))
                .claim("roles", roles)
                .build();
        var jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(key.getKeyID())
                        .type(JOSEObjectType.JWT)
                        .build(),
                claims);
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException ex) {
            throw new IllegalStateException(ex);
        }
        return "Bearer " + jwt.serialize();
    }

    private static RSAKey rsaKey(String id) {
        try {
            return new RSAKeyGenerator(2048).keyID(id).generate();
        } catch (JOSEException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Serves the public half of {@link #KEY} as the provider's JWK set. */
    private static HttpServer jwkSetServer() {
        try {
            var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            var body = new JWKSet(KEY.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
            server.createContext("/jwks", exchange -> {
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (var out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return server;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
