package dev.orderpipeline.api.order;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class OrderApiTests extends ApiTestSupport {

    @Test
    void createsAnOrderForTheCaller() {
        var productId = createProduct(3, "9.99");
        var alice = newUser();

        var response = api.post("/api/orders", """
                {"productId": "%s", "quantity": 2}
                """.formatted(productId), AUTHORIZATION, bearer(alice));

        assertThat(response.status()).as(response::toString).isEqualTo(201);
        var order = response.json();
        var id = UUID.fromString(order.get("id").asString());
        assertThat(response.header("Location")).contains("/api/orders/" + id);
        assertThat(order.get("userId").asString()).isEqualTo(alice);
        assertThat(order.get("productId").asString()).isEqualTo(productId.toString());
        assertThat(order.get("quantity").asInt()).isEqualTo(2);
        assertThat(order.get("status").asString()).isEqualTo("CREATED");
        assertThat(order.has("rejectReason")).isTrue();
        assertThat(order.get("rejectReason").isNull()).isTrue();
        assertThat(order.get("createdAt").asString()).isNotBlank();
        assertThat(order.get("updatedAt").asString()).isNotBlank();
        assertThat(statusInDatabase(id)).isEqualTo("CREATED");
    }

    @Test
    void showsAnOrderToItsOwner() {
        var alice = newUser();
        var order = createOrder(alice, createProduct(3, "9.99"), 1);

        var response = api.get("/api/orders/" + order.get("id").asString(), AUTHORIZATION, bearer(alice));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json()).isEqualTo(order);
    }

    @Test
    void hidesAnOrderFromAnotherUserExactlyLikeAMissingOne() {
        var order = createOrder(newUser(), createProduct(3, "9.99"), 1);
        var orderId = order.get("id").asString();

        var someoneElses = api.get("/api/orders/" + orderId, AUTHORIZATION, bearer(newUser()));
        var missing = api.get("/api/orders/" + UUID.randomUUID(), AUTHORIZATION, bearer(newUser()));

        assertThat(someoneElses.status()).isEqualTo(404);
        assertThat(missing.status()).isEqualTo(404);
        var problem = someoneElses.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:order-not-found");
        assertThat(problem.propertyNames()).isEqualTo(missing.json().propertyNames());
        assertThat(problem.get("title")).isEqualTo(missing.json().get("title"));
        assertThat(problem.get("detail").asString()).isEqualTo("Order " + orderId + " does not exist");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", " padded"})
    void refusesAnOrderWhoseCallerIsNotIdentified(String userId) {
        var before = count("orders");
        var body = "{\"productId\": \"%s\", \"quantity\": 1}".formatted(createProduct(3, "1.00"));

        var refused = userId.isEmpty()
                ? ApiClient.anonymous(port()).post("/api/orders", body)
                : api.post("/api/orders", body, AUTHORIZATION, bearer(userId));

        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.header("WWW-Authenticate"))
                .hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
        var problem = refused.json();
        assertThat(problem.get("type").asString())
                .isEqualTo(
                        userId.isEmpty()
                                ? "urn:order-pipeline:problem:authentication-required"
                                : "urn:order-pipeline:problem:invalid-token");
        assertThat(problem.get("status").asInt()).isEqualTo(401);
        assertThat(count("orders")).isEqualTo(before);
    }

    @Test
    void refusesToShowAnOrderWithoutCaller() {
        var response = ApiClient.anonymous(port()).get("/api/orders/" + UUID.randomUUID());

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().get("type").asString())
                .isEqualTo("urn:order-pipeline:problem:authentication-required");
    }

    static Stream<Arguments> invalidOrders() {
        var productId = "\"" + UUID.randomUUID() + "\"";
        return Stream.of(
                Arguments.of(
                        "zero quantity", "{\"productId\": " + productId + ", \"quantity\": 0}", "validation-failed"),
                Arguments.of(
                        "negative quantity",
                        "{\"productId\": " + productId + ", \"quantity\": -2}",
                        "validation-failed"),
                Arguments.of("missing quantity", "{\"productId\": " + productId + "}", "validation-failed"),
                Arguments.of("missing product", "{\"quantity\": 1}", "validation-failed"),
                Arguments.of("empty object", "{}", "validation-failed"),
                Arguments.of(
                        "invalid product id", "{\"productId\": \"not-a-uuid\", \"quantity\": 1}", "malformed-request"),
                Arguments.of(
                        "text quantity",
                        "{\"productId\": " + productId + ", \"quantity\": \"two\"}",
                        "malformed-request"),
                Arguments.of(
                        "fractional quantity",
                        "{\"productId\": " + productId + ", \"quantity\": 1.5}",
                        "malformed-request"),
                Arguments.of("malformed JSON", "{\"productId\": ", "malformed-request"),
                Arguments.of("array body", "[]", "malformed-request"),
                Arguments.of("no body", null, "malformed-request"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidOrders")
    void rejectsAnInvalidOrderAndCreatesNothing(String label, String body, String kind) {
        var before = count("orders");

        var response = api.post("/api/orders", body, AUTHORIZATION, bearer(newUser()));

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:" + kind);
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("detail").asString()).isNotBlank();
        if (kind.equals("validation-failed")) {
            assertThat(problem.get("errors").size()).isPositive();
        }
        assertThat(count("orders")).isEqualTo(before);
    }

    @Test
    void answersNotFoundForAnUnknownProduct() {
        var before = count("orders");
        var productId = UUID.randomUUID();

        var response = api.post(
                "/api/orders",
                "{\"productId\": \"%s\", \"quantity\": 1}".formatted(productId),
                AUTHORIZATION,
                bearer(newUser()));

        assertThat(response.status()).isEqualTo(404);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:product-not-found");
        assertThat(problem.get("productId").asString()).isEqualTo(productId.toString());
        assertThat(count("orders")).isEqualTo(before);
    }

    @Test
    void refusesAnOrderIdThatIsNotAUuid() {
        var response = api.get("/api/orders/42", AUTHORIZATION, bearer(newUser()));

        assertThat(response.status()).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:malformed-request");
        assertThat(problem.get("parameter").asString()).isEqualTo("id");
        assertThat(problem.get("detail").asString()).isEqualTo("Parameter 'id' must be a valid UUID");
    }
}
