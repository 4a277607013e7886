package dev.orderpipeline.api.web;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.DescribedResponses;
import dev.orderpipeline.api.order.OrderExamples;
import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The check every web test's answers go through ({@link DescribedResponses}) tells an answer that breaks the served
 * description from one that keeps it: what the description drew before its fields said where they may be null.
 */
class DescribedResponsesTests extends ApiTestSupport {

    /** A decided cart: no product or quantity of its own, no reject reason, on the order and its lines. */
    private static final String CART = OrderExamples.CART_COMPLETED;

    private static final String PATH = "/api/orders/d4e6f8a0-2b4c-4d6e-8f0a-1b3c5d7e9f1a";

    @Test
    void passesACartWithItsNullFields() {
        assertThat(violations("GET", PATH, 200, CART)).isEmpty();
    }

    @Test
    void failsAnAnswerThatBreaksTheDescription() {
        assertThat(violations("GET", PATH, 200, CART.replace("\"status\": \"COMPLETED\"", "\"status\": \"LOST\"")))
                .contains("enumeration");
        assertThat(violations("GET", PATH, 200, CART.replace("\"userId\": \"alice\", ", "")))
                .contains("userId");
        assertThat(violations("GET", PATH, 200, CART.replace("\"quantity\": 2", "\"quantity\": \"2\"")))
                .isNotEmpty();
        assertThat(violations("GET", PATH, 200, CART.replace("\"lineNo\": 1, ", "\"lineNo\": null, ")))
                .isNotEmpty();
        assertThat(violations("GET", PATH, 200, "{\"id\": 1}")).isNotEmpty();
    }

    @Test
    void holdsTheAnswersOfTheApiItself() {
        var alice = newUser();
        var product = createProduct(3, "2.50");
        var order =
                api.post("/api/orders", """
                {"lines": [{"productId": "%s", "quantity": 1}, {"productId": "%s", "quantity": 1}]}""".formatted(product, createProduct(3, "1.00")), AUTHORIZATION, bearer(alice));

        assertThat(order.status()).as(order::toString).isEqualTo(201);
        assertThat(violations("POST", "/api/orders", order.status(), order.body()))
                .isEmpty();
    }

    private String violations(String method, String path, int status, String body) {
        var description = api.get("/v3/api-docs").body();
        var headers = HttpHeaders.of(Map.of("Content-Type", List.of("application/json")), (name, value) -> true);
        return DescribedResponses.violations(
                DescribedResponses.validator(description), method, path, new ApiClient.Response(status, headers, body));
    }
}
