package dev.orderpipeline.api.security;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.TestTokens;
import dev.orderpipeline.infra.DevelopmentTokens;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationContext;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * Who may call what, for every endpoint the running application maps (its controllers and the API description's on
 * the API's port, the actuator's on the management port): anonymous callers, tokens that do not verify (another key,
 * expired, another issuer, unsigned), a user and an administrator, each against the rule this test expects of the
 * endpoint. An endpoint mapped without an expectation here fails the test, so a new one gets a deliberate rule; so
 * does an expectation without an endpoint.
 */
class AuthorizationMatrixTests extends ApiTestSupport {

    /** Who an endpoint is for. */
    enum Access {
        /** Anyone, without a token. */
        PUBLIC,
        /** Any authenticated caller. */
        USER,
        /** Callers with the role admin. */
        ADMIN,
        /** Nobody: not an endpoint to call (Spring Boot's error page, reached only by the server's error dispatch). */
        NOBODY
    }

    /** The rules of {@link SecurityConfiguration}, endpoint by endpoint: "METHOD pattern" as Spring MVC maps it. */
    private static final Map<String, Access> EXPECTED = Map.ofEntries(
            Map.entry("GET /api/products/{id}", Access.PUBLIC),
            Map.entry("POST /api/products", Access.ADMIN),
            Map.entry("POST /api/products/{id}/restock", Access.ADMIN),
            Map.entry("POST /api/orders", Access.USER),
            Map.entry("GET /api/orders/{id}", Access.USER),
            Map.entry("POST /api/orders/{id}/checkout", Access.USER),
            Map.entry("GET /api/orders/{id}/events", Access.USER),
            Map.entry("GET /actuator/health", Access.PUBLIC),
            Map.entry("GET /actuator/health/**", Access.PUBLIC),
            Map.entry("GET /actuator/info", Access.PUBLIC),
            Map.entry("GET /actuator/prometheus", Access.PUBLIC),
            Map.entry("GET /actuator", Access.ADMIN),
            Map.entry("GET /actuator/metrics", Access.ADMIN),
            Map.entry("GET /actuator/metrics/**", Access.ADMIN),
            Map.entry("GET /v3/api-docs", Access.PUBLIC),
            Map.entry("GET /v3/api-docs.yaml", Access.PUBLIC),
            Map.entry("GET /v3/api-docs/swagger-config", Access.PUBLIC),
            Map.entry("GET /swagger-ui.html", Access.PUBLIC),
            Map.entry("GET /error", Access.NOBODY));

    /** Credentials that must never get through, whatever the endpoint: each a 401 invalid-token. */
    private static final Map<String, String> REJECTED_TOKENS = rejectedTokens();

    @Autowired
    private ApplicationContext context;

    @Value("${orderpipeline.security.development-key}")
    private String developmentKey;

    @Test
    void theTestsSignWithTheKeyTheApiVerifiesWith() {
        assertThat(developmentKey).isEqualTo(DevelopmentTokens.DEFAULT_KEY);
    }

    @Test
    void everyMappedEndpointHasAnExpectedAccessRule() {
        var mapped = mappedEndpoints();
        assertThat(new TreeSet<>(mapped))
                .as("endpoints without an expectation in this test")
                .isSubsetOf(EXPECTED.keySet());
        assertThat(new TreeSet<>(EXPECTED.keySet()))
                .as("expectations without an endpoint")
                .isSubsetOf(mapped);
    }

    @Test
    void answersEveryCallerOfEveryEndpointAsItsRuleSaysAndWritesNothing() {
        var before = rowCounts();
        var user = TestTokens.bearer("matrix-user-" + UUID.randomUUID());
        var admin = TestTokens.adminBearer();
        var failures = new ArrayList<String>();
        for (var endpoint : new TreeSet<>(mappedEndpoints())) {
            var access = EXPECTED.get(endpoint);
            if (access == null) {
                failures.add(endpoint + ": no expected rule");
                continue;
            }
            var method = endpoint.substring(0, endpoint.indexOf(' '));
            var path = concrete(endpoint.substring(endpoint.indexOf(' ') + 1));
            var client = ApiClient.anonymous(isActuator(path) ? managementPort() : port());
            check(
                    failures,
                    endpoint,
                    "anonymous",
                    client.send(method, path, null, "application/json"),
                    switch (access) {
                        case PUBLIC -> Outcome.ALLOWED;
                        case USER, ADMIN, NOBODY -> Outcome.AUTHENTICATION_REQUIRED;
                    });
            REJECTED_TOKENS.forEach((name, token) -> check(
                    failures,
                    endpoint,
                    name,
                    client.send(method, path, null, "application/json", AUTHORIZATION, token),
                    Outcome.INVALID_TOKEN));
            check(
                    failures,
                    endpoint,
                    "user",
                    client.send(method, path, null, "application/json", AUTHORIZATION, user),
                    switch (access) {
                        case PUBLIC, USER -> Outcome.ALLOWED;
                        case ADMIN, NOBODY -> Outcome.FORBIDDEN;
                    });
            check(
                    failures,
                    endpoint,
                    "admin",
                    client.send(method, path, null, "application/json", AUTHORIZATION, admin),
                    access == Access.NOBODY ? Outcome.FORBIDDEN : Outcome.ALLOWED);
        }
        assertThat(failures).as("answers that break the access rules").isEmpty();
        // every request above was refused, or allowed with nothing to act on (no body, an unknown id)
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void servesNoActuatorEndpointOnTheApisPort() {
        for (var endpoint : EXPECTED.keySet()) {
            var path = concrete(endpoint.substring(endpoint.indexOf(' ') + 1));
            if (!isActuator(path)) {
                continue;
            }
            var asAdmin = api.get(path);
            assertThat(asAdmin.status())
                    .as("%s on the API's port: %s", path, asAdmin)
                    .isEqualTo(404);
            assertThat(ApiClient.anonymous(port()).get(path).status())
                    .as("%s on the API's port, anonymous", path)
                    .isIn(401, 404);
        }
        assertThat(apiPortMappings()).noneMatch(endpoint -> isActuator(endpoint.substring(endpoint.indexOf(' ') + 1)));
    }

    @Test
    void servesWhatNoHandlerMappingListsToAnyone() {
        var client = ApiClient.anonymous(port());
        assertThat(client.send("GET", "/swagger-ui/index.html", null, "text/html", "Accept", "text/html")
                        .status())
                .isEqualTo(200);
        // the resource metadata (RFC 9728) that WWW-Authenticate points clients to, served by a security filter
        var metadata = client.get("/.well-known/oauth-protected-resource");
        assertThat(metadata.status()).isEqualTo(200);
        assertThat(metadata.json().get("bearer_methods_supported").values())
                .extracting(JsonNode::asString)
                .containsExactly("header");
    }

    @Test
    void refusesAPathNoEndpointMapsToAnyoneWithoutAToken() {
        var response = ApiClient.anonymous(port()).get("/api/nothing-here");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().get("type").asString())
                .isEqualTo("urn:order-pipeline:problem:authentication-required");
        assertThat(api.get("/api/nothing-here").status()).isEqualTo(404);
    }

    /** What a caller must get. */
    private enum Outcome {
        ALLOWED,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        FORBIDDEN
    }

    private static void check(
            List<String> failures, String endpoint, String caller, ApiClient.Response response, Outcome expected) {
        var status = response.status();
        var problem = response.contentType().startsWith("application/problem+json") ? response.json() : null;
        var type = problem == null ? "-" : problem.path("type").asString("-");
        var failure = switch (expected) {
            case ALLOWED -> status == 401 || status == 403 || status >= 500 ? "allowed" : null;
            case AUTHENTICATION_REQUIRED -> refusal(response, 401, "authentication-required", "Bearer", problem, type);
            case INVALID_TOKEN -> refusal(response, 401, "invalid-token", "invalid_token", problem, type);
            case FORBIDDEN -> refusal(response, 403, "forbidden", null, problem, type);
        };
        if (failure != null) {
            failures.add("%s as %s: expected %s, got %d %s (%s)"
                    .formatted(
                            endpoint,
                            caller,
                            failure,
                            status,
                            type,
                            response.header("WWW-Authenticate").orElse("")));
        }
    }

    /** Null when the response is the refusal expected: its status, a problem of its kind, the challenge. */
    private static @Nullable String refusal(
            ApiClient.Response response,
            int status,
            String kind,
            @Nullable String challenge,
            @Nullable JsonNode problem,
            String type) {
        var expected = status + " " + kind;
        if (response.status() != status || problem == null || !type.equals("urn:order-pipeline:problem:" + kind)) {
            return expected;
        }
        if (problem.path("status").asInt() != status
                || problem.path("title").asString("").isBlank()) {
            return expected + " with a complete problem";
        }
        if (challenge != null && !response.header("WWW-Authenticate").orElse("").contains(challenge)) {
            return expected + " with WWW-Authenticate containing " + challenge;
        }
        return null;
    }

    /** A path that the pattern matches, with made-up ids: an allowed request finds nothing to act on. */
    private static String concrete(String pattern) {
        return pattern.replace("/actuator/metrics/**", "/actuator/metrics/jvm.threads.live")
                .replace("/**", "/liveness")
                .replaceAll("\\{[^}]+}", UUID.randomUUID().toString());
    }

    private static Map<String, String> rejectedTokens() {
        var tokens = new TreeMap<String, String>();
        var subject = "matrix-user";
        tokens.put(
                "another key",
                "Bearer " + new DevelopmentTokens("another-key-of-at-least-thirty-two-bytes-long").admin(subject));
        tokens.put("expired", "Bearer " + TestTokens.TOKENS.mint(subject, List.of("admin"), Duration.ofMinutes(-5)));
        tokens.put(
                "another issuer",
                "Bearer "
                        + new DevelopmentTokens(DevelopmentTokens.DEFAULT_KEY, "someone-else", Clock.systemUTC())
                                .admin(subject));
        var encoder = Base64.getUrlEncoder().withoutPadding();
        var exp = Instant.now().plusSeconds(600).getEpochSecond();
        tokens.put(
                "unsigned",
                "Bearer "
                        + encoder.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8))
                        + "."
                        + encoder.encodeToString(("{\"sub\":\"" + subject + "\",\"iss\":\""
                                        + DevelopmentTokens.DEFAULT_ISSUER + "\",\"exp\":" + exp
                                        + ",\"roles\":[\"admin\"]}")
                                .getBytes(StandardCharsets.UTF_8))
                        + ".");
        tokens.put("garbled", "Bearer not.a.jwt");
        return tokens;
    }

    private List<Long> rowCounts() {
        return List.of(count("product"), count("orders"), count("payment"));
    }

    private static boolean isActuator(String path) {
        return path.equals("/actuator") || path.startsWith("/actuator/");
    }

    /** The controllers' endpoints and the actuator's, as the management port's discovery page lists them. */
    private List<String> mappedEndpoints() {
        var endpoints = new ArrayList<>(apiPortMappings());
        var discovery = management.get("/actuator", AUTHORIZATION, TestTokens.adminBearer());
        assertThat(discovery.status()).as(discovery::toString).isEqualTo(200);
        for (var link : discovery.json().get("_links").values()) {
            var path = java.net
                    .URI
                    .create(link.get("href").asString().replace("{", "%7B").replace("}", "%7D"))
                    .getPath();
            // a template's variable matches what Spring MVC maps as a pattern: one segment, or all that remain
            endpoints.add("GET " + path.replace("{*path}", "**").replaceAll("\\{[^}]+}", "**"));
        }
        return endpoints;
    }

    /** What the application context's own handler mappings serve: the API's port. */
    private List<String> apiPortMappings() {
        var endpoints = new ArrayList<String>();
        for (var mapping :
                context.getBeansOfType(RequestMappingInfoHandlerMapping.class).values()) {
            for (var info : mapping.getHandlerMethods().keySet()) {
                var methods = info.getMethodsCondition().getMethods();
                for (var pattern : info.getPatternValues()) {
                    if (methods.isEmpty()) {
                        endpoints.add("GET " + pattern);
                    } else {
                        for (var method : methods) {
                            endpoints.add(method.name() + " " + pattern);
                        }
                    }
                }
            }
        }
        return endpoints;
    }
}
