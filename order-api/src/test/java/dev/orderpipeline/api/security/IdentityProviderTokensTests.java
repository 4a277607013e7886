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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The production set-up: tokens of an identity provider, verified with the keys its JWK set URI serves (a server of
 * this test), with the issuer and the audience checked and the roles read from the provider's own claim. The
 * development key the tests configure is then ignored.
 */
class IdentityProviderTokensTests extends ApiTestSupport {

    private static final String ISSUER = "https://issuer.example.test/";
    private static final String AUDIENCE = "order-api";
    /** A namespaced claim, as some providers require for custom claims. */
    private static final String ROLES_CLAIM = "https://order-pipeline.example.test/roles";

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
        registry.add("orderpipeline.security.roles-claim", () -> ROLES_CLAIM);
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

    @Test
    void refusesATokenTheProviderIssuedForAnotherApplication() {
        var client = ApiClient.anonymous(port());
        var before = count("orders");
        var productId = providerProduct();

        for (var audience : List.of("another-api", "order-api-other", "")) {
            var response = client.post(
                    "/api/orders",
                    "{\"productId\": \"" + productId + "\", \"quantity\": 1}",
                    AUTHORIZATION,
                    bearer(KEY, "alice", ISSUER, audience, List.of("admin")));

            assertThat(response.status()).as(response::toString).isEqualTo(401);
            assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:invalid-token");
            assertThat(response.header("WWW-Authenticate"))
                    .hasValueSatisfying(header -> assertThat(header).contains("invalid_token"));
        }
        assertThat(count("orders")).isEqualTo(before);
    }

    @Test
    void grantsRolesFromTheConfiguredClaimOnly() {
        var client = ApiClient.anonymous(port());
        var product = "{\"name\": \"Roles product\", \"stock\": 1, \"price\": 2}";
        var before = count("product");

        // admin in the claim Spring Security and the development tokens use is not admin with this provider
        var plainRoles = client.post(
                "/api/products",
                product,
                AUTHORIZATION,
                bearer(KEY, "ops-" + UUID.randomUUID(), ISSUER, AUDIENCE, "roles", List.of("admin")));
        assertThat(plainRoles.status()).as(plainRoles::toString).isEqualTo(403);
        assertThat(plainRoles.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:forbidden");
        assertThat(count("product")).isEqualTo(before);

        var configuredClaim = client.post(
                "/api/products",
                product,
                AUTHORIZATION,
                bearer(KEY, "ops-" + UUID.randomUUID(), ISSUER, AUDIENCE, ROLES_CLAIM, List.of("admin")));
        assertThat(configuredClaim.status()).as(configuredClaim::toString).isEqualTo(201);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjectsThatAreNotUserIds")
    void refusesASubjectThatIsNotAUserIdAndWritesNothing(String description, String subject) {
        var client = ApiClient.anonymous(port());
        var productId = providerProduct();
        var ordersBefore = count("orders");
        var productsBefore = count("product");
        var token = bearer(KEY, subject, ISSUER, AUDIENCE, List.of("admin"));

        var created = client.post(
                "/api/orders", "{\"productId\": \"" + productId + "\", \"quantity\": 1}", AUTHORIZATION, token);
        var read = client.get("/api/orders/" + UUID.randomUUID(), AUTHORIZATION, token);
        var product = client.post(
                "/api/products", "{\"name\": \"Refused\", \"stock\": 1, \"price\": 2}", AUTHORIZATION, token);

        for (var response : List.of(created, read, product)) {
            assertThat(response.status()).as(response::toString).isEqualTo(401);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:invalid-token");
            assertThat(response.json().get("detail").asString()).contains("subject");
        }
        assertThat(count("orders")).isEqualTo(ordersBefore);
        assertThat(count("product")).isEqualTo(productsBefore);
    }

    static Stream<Arguments> subjectsThatAreNotUserIds() {
        return Stream.of(
                Arguments.of("NUL", "ali\u0000ce"),
                Arguments.of("only NUL", "\u0000"),
                Arguments.of("escape sequence", "bob\u001b[31m"),
                Arguments.of("line feed", "carol\nadmin logged in"),
                Arguments.of("DEL", "dave\u007f"),
                Arguments.of("C1 next line", "erin\u0085"),
                Arguments.of("surrounding whitespace", " grace "),
                Arguments.of("blank", "   "),
                Arguments.of("too long", "u".repeat(256)));
    }

    @Test
    void acceptsASubjectOfTheLongestLengthAndAnyScript() {
        var client = ApiClient.anonymous(port());
        var productId = providerProduct();
        for (var subject : List.of("u".repeat(200), "zoë-日本-🙂")) {
            var response = client.post(
                    "/api/orders",
                    "{\"productId\": \"" + productId + "\", \"quantity\": 1}",
                    AUTHORIZATION,
                    bearer(KEY, subject, ISSUER, AUDIENCE, List.of()));
            assertThat(response.status()).as(response::toString).isEqualTo(201);
            assertThat(response.json().get("userId").asString()).isEqualTo(subject);
        }
    }

    /** A product created by an administrator of the provider: the development key's tokens are not valid here. */
    private UUID providerProduct() {
        var response = ApiClient.anonymous(port())
                .post(
                        "/api/products",
                        "{\"name\": \"Provider product\", \"stock\": 5, \"price\": 3}",
                        AUTHORIZATION,
                        bearer(KEY, "ops-" + UUID.randomUUID(), ISSUER, AUDIENCE, List.of("admin")));
        assertThat(response.status()).as(response::toString).isEqualTo(201);
        return UUID.fromString(response.json().get("id").asString());
    }

    private static String bearer(RSAKey key, String subject, String issuer, String audience, List<String> roles) {
        return bearer(key, subject, issuer, audience, ROLES_CLAIM, roles);
    }

    private static String bearer(
            RSAKey key, String subject, String issuer, String audience, String rolesClaim, List<String> roles) {
        var now = Instant.now();
        var claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(audience)
                .subject(subject)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300)))
                .claim(rolesClaim, roles)
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
