package dev.orderpipeline.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The OpenAPI description at /v3/api-docs and the Swagger UI in front of it. */
class ApiDescriptionTests extends ApiTestSupport {

    private JsonNode description;

    @BeforeEach
    void readDescription() {
        var response = api.get("/v3/api-docs");
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        description = response.json();
    }

    @Test
    void describesEveryEndpointOfTheApiAndNothingElse() {
        assertThat(description.get("openapi").asString()).startsWith("3.");
        assertThat(description.get("info").get("title").asString()).contains("order API");
        assertThat(description.get("info").get("version").asString()).isNotBlank();
        assertThat(description.get("info").get("description").asString())
                .contains("checkout.commands", "Prefer: wait", "RFC 9457")
                // the production API describes the pipeline only: the lab is off, and its description with it
                .doesNotContain("strategy=", "db-atomic", "naive", "serializable", "/api/lab");
        assertThat(description.get("paths").propertyNames())
                .containsExactlyInAnyOrder(
                        "/api/products",
                        "/api/products/{id}",
                        "/api/products/{id}/restock",
                        "/api/orders",
                        "/api/orders/{id}",
                        "/api/orders/{id}/checkout",
                        "/api/orders/{id}/events");
        var operations = Map.of(
                "post /api/products", "createProduct",
                "get /api/products/{id}", "getProduct",
                "post /api/products/{id}/restock", "restockProduct",
                "post /api/orders", "createOrder",
                "get /api/orders/{id}", "getOrder",
                "post /api/orders/{id}/checkout", "checkoutOrder",
                "get /api/orders/{id}/events", "orderEvents");
        operations.forEach((key, operationId) -> {
            var operation = operation(key);
            assertThat(operation.get("operationId").asString()).isEqualTo(operationId);
            assertThat(operation.get("summary").asString()).as(key).isNotBlank();
            assertThat(operation.get("description").asString()).as(key).isNotBlank();
        });
    }

    @Test
    void describesACheckoutThatTakesTheWaitPreferenceAndNoLabParameter() {
        var checkout = operation("post /api/orders/{id}/checkout");

        assertThat(checkout.get("parameters").values())
                .extracting(parameter -> parameter.get("in").asString() + " "
                        + parameter.get("name").asString())
                .containsExactlyInAnyOrder("path id", "header Prefer");
        assertThat(parameter(checkout, "Prefer", "header").get("description").asString())
                .contains("wait=N");
        assertThat(checkout.get("description").asString()).contains("strategy", "delayMs", "maxAttempts", "`400`");
    }

    @Test
    void requiresABearerTokenWhereACallerOrTheAdminRoleIsConcerned() {
        var scheme = description.at("/components/securitySchemes/bearer");
        assertThat(scheme.get("type").asString()).isEqualTo("http");
        assertThat(scheme.get("scheme").asString()).isEqualTo("bearer");
        assertThat(scheme.get("bearerFormat").asString()).isEqualTo("JWT");
        for (var key : List.of(
                "post /api/orders", "get /api/orders/{id}", "post /api/orders/{id}/checkout", "post /api/products")) {
            assertThat(operation(key).get("security").values())
                    .as(key)
                    .singleElement()
                    .satisfies(requirement ->
                            assertThat(requirement.propertyNames()).containsExactly("bearer"));
        }
        // the catalogue is public
        assertThat(operation("get /api/products/{id}").path("security").isMissingNode())
                .isTrue();
        assertThat(operation("post /api/products").get("description").asString())
                .contains("role `admin`");
        // no header takes the caller's word for who it is any more, and springdoc made up no query parameter from
        // the Caller record
        for (var key : List.of("post /api/orders", "get /api/orders/{id}", "post /api/orders/{id}/checkout")) {
            assertThat(operation(key).path("parameters").values())
                    .as(key)
                    .noneSatisfy(parameter ->
                            assertThat(parameter.get("name").asString()).isIn("X-User-Id", "userId", "Authorization"));
        }
    }

    @Test
    void showsExamplesOfRequestsAndAnswers() {
        assertThat(operation("post /api/products")
                        .at("/requestBody/content/application~1json/examples")
                        .values())
                .anySatisfy(example ->
                        assertThat(example.get("value").get("name").asString()).isEqualTo("Hot sneakers"));
        assertThat(operation("post /api/products")
                        .at("/responses/201/content/application~1json/schema/$ref")
                        .asString())
                .endsWith("/Product");
        var checkout = operation("post /api/orders/{id}/checkout").get("responses");
        assertThat(checkout.at("/202/content/application~1json/examples/accepted/value")
                        .propertyNames())
                .containsExactlyInAnyOrder("orderId", "commandId", "status");
        assertThat(checkout.at("/202/headers").propertyNames()).contains("Location");
        assertThat(checkout.at("/200/content/application~1json/examples/completed/value/status")
                        .asString())
                .isEqualTo("COMPLETED");
        assertThat(checkout.at("/200/content/application~1json/examples/rejected/value/rejectReason")
                        .asString())
                .isEqualTo("INSUFFICIENT_STOCK");
    }

    @Test
    void describesTheProblemsOfEachEndpointWithTheirTypes() {
        assertProblems(
                "post /api/products",
                Map.of(
                        400, List.of("validation-failed", "malformed-request"),
                        401, List.of("authentication-required", "invalid-token"),
                        403, List.of("forbidden"),
                        413, List.of("payload-too-large"),
                        415, List.of("unsupported-media-type"),
                        503, List.of("database-unavailable")));
        assertProblems(
                "post /api/products/{id}/restock",
                Map.of(
                        400, List.of("validation-failed", "malformed-request"),
                        401, List.of("authentication-required", "invalid-token"),
                        403, List.of("forbidden"),
                        404, List.of("product-not-found"),
                        413, List.of("payload-too-large"),
                        415, List.of("unsupported-media-type"),
                        503, List.of("database-unavailable")));
        assertProblems(
                "get /api/products/{id}",
                Map.of(
                        400, List.of("malformed-request"),
                        401, List.of("invalid-token"),
                        404, List.of("product-not-found"),
                        503, List.of("database-unavailable")));
        assertProblems(
                "post /api/orders",
                Map.of(
                        400, List.of("validation-failed", "malformed-request"),
                        401, List.of("authentication-required", "invalid-token"),
                        404, List.of("product-not-found"),
                        413, List.of("payload-too-large"),
                        422, List.of("idempotency-key-reused"),
                        503, List.of("database-unavailable")));
        assertProblems(
                "get /api/orders/{id}", Map.of(404, List.of("order-not-found"), 503, List.of("database-unavailable")));
        assertProblems(
                "post /api/orders/{id}/checkout",
                Map.of(
                        400, List.of("validation-failed", "malformed-request", "lab-off"),
                        401, List.of("authentication-required", "invalid-token"),
                        404, List.of("order-not-found"),
                        409, List.of("order-not-checkoutable", "sold-out"),
                        503, List.of("broker-unavailable", "checkout-outcome-unknown", "database-unavailable")));
        assertThat(operation("post /api/orders/{id}/checkout")
                        .at("/responses/400/content/application~1problem+json/examples/lab-off/value/parameters")
                        .values())
                .extracting(JsonNode::asString)
                .containsExactly("strategy");
        for (var key : List.of(
                "post /api/orders/{id}/checkout",
                "post /api/products",
                "get /api/products/{id}",
                "post /api/orders",
                "get /api/orders/{id}")) {
            assertThat(operation(key).at("/responses/503/headers").propertyNames())
                    .as(key)
                    .contains("Retry-After");
        }
        var problem = description.at("/components/schemas/Problem");
        assertThat(problem.get("properties").propertyNames()).contains("type", "title", "status", "detail", "instance");
        assertThat(problem.get("required").values())
                .extracting(JsonNode::asString)
                .contains("type", "title", "status");
    }

    @Test
    void describesEveryFieldAsTheApiSendsItPresentAndNullOnlyWhereItCanBe() {
        var order = description.at("/components/schemas/Order");
        assertThat(order.get("required").values())
                .extracting(JsonNode::asString)
                .containsExactlyInAnyOrder(
                        "id",
                        "userId",
                        "productId",
                        "quantity",
                        "lines",
                        "status",
                        "rejectReason",
                        "createdAt",
                        "updatedAt");
        // a cart has neither product nor quantity; an order not rejected has no reason
        assertThat(types(order.at("/properties/productId"))).containsExactlyInAnyOrder("string", "null");
        assertThat(order.at("/properties/productId/format").asString()).isEqualTo("uuid");
        assertThat(types(order.at("/properties/quantity"))).containsExactlyInAnyOrder("integer", "null");
        assertThat(types(order.at("/properties/rejectReason"))).containsExactlyInAnyOrder("string", "null");
        assertThat(order.at("/properties/rejectReason/enum").values())
                .extracting(value -> value.isNull() ? null : value.asString())
                .contains("INSUFFICIENT_STOCK")
                .containsNull();
        assertThat(types(order.at("/properties/status"))).containsExactly("string");
        assertThat(order.at("/properties/createdAt/format").asString()).isEqualTo("date-time");
        var line = description.at("/components/schemas/OrderLine");
        assertThat(line.get("required").values()).hasSize(5);
        assertThat(types(line.at("/properties/rejectReason"))).containsExactlyInAnyOrder("string", "null");
        assertThat(types(line.at("/properties/productId"))).containsExactly("string");
        for (var schema : List.of("Product", "CheckoutAccepted")) {
            var properties = description.at("/components/schemas/" + schema + "/properties");
            assertThat(description
                            .at("/components/schemas/" + schema + "/required")
                            .values())
                    .as(schema)
                    .extracting(JsonNode::asString)
                    .containsExactlyInAnyOrderElementsOf(properties.propertyNames());
            properties.forEach(property -> assertThat(types(property)).doesNotContain("null"));
        }
        // any status an operation does not list is a problem too
        assertThat(operation("post /api/orders")
                        .at("/responses/default/content/application~1problem+json/schema/$ref")
                        .asString())
                .endsWith("/Problem");
    }

    @Test
    void describesTheIdempotencyKeyOfOrderCreationAndItsReplay() {
        var create = operation("post /api/orders");

        var key = parameter(create, "Idempotency-Key", "header");
        assertThat(key.path("required").asBoolean(false)).isFalse();
        assertThat(key.at("/schema/maxLength").asInt()).isEqualTo(255);
        assertThat(key.at("/schema/pattern").asString()).isEqualTo("^[A-Za-z0-9._~+/=:-]{1,255}$");
        assertThat(create.at("/responses/200/headers").propertyNames()).contains("Idempotent-Replayed", "Location");
        assertThat(create.at("/responses/201/content/application~1json/schema/$ref")
                        .asString())
                .endsWith("/Order");
        assertThat(create.get("description").asString()).contains("Idempotency-Key", "24 hours", "`422`");
    }

    private static List<String> types(JsonNode schema) {
        var type = schema.get("type");
        if (type == null) {
            return List.of();
        }
        return type.isArray() ? type.valueStream().map(JsonNode::asString).toList() : List.of(type.asString());
    }

    @Test
    void servesTheSwaggerUi() {
        var page = api.send("GET", "/swagger-ui.html", null, "text/html", "Accept", "text/html");
        assertThat(page.status()).isEqualTo(302);
        var location = page.header("Location").orElseThrow();
        assertThat(location).endsWith("/swagger-ui/index.html");

        var index = api.send("GET", "/swagger-ui/index.html", null, "text/html", "Accept", "text/html");
        assertThat(index.status()).isEqualTo(200);
        assertThat(index.body()).containsIgnoringCase("swagger");
        assertThat(api.get("/v3/api-docs/swagger-config").json().get("url").asString())
                .isEqualTo("/v3/api-docs");
    }

    private void assertProblems(String key, Map<Integer, List<String>> expected) {
        var responses = operation(key).get("responses");
        expected.forEach((status, kinds) -> {
            var content = responses.at("/" + status + "/content/application~1problem+json");
            assertThat(content.isMissingNode())
                    .as("%s answers %d as a problem", key, status)
                    .isFalse();
            assertThat(content.at("/schema/$ref").asString()).endsWith("/Problem");
            var examples = content.get("examples");
            for (var kind : kinds) {
                var example = examples.get(kind);
                assertThat(example).as("%s %d example %s", key, status, kind).isNotNull();
                var value = example.get("value");
                assertThat(value.get("type").asString()).isEqualTo(ProblemKind.TYPE_PREFIX + kind);
                assertThat(value.get("status").asInt()).isEqualTo(status);
                assertThat(value.get("title").asString()).isNotBlank();
            }
        });
    }

    private JsonNode operation(String key) {
        var methodAndPath = key.split(" ", 2);
        var operation = description.get("paths").get(methodAndPath[1]).get(methodAndPath[0]);
        assertThat(operation).as(key).isNotNull();
        return operation;
    }

    private static JsonNode parameter(JsonNode operation, String name, String in) {
        return operation
                .get("parameters")
                .valueStream()
                .filter(parameter -> parameter.get("name").asString().equals(name)
                        && parameter.get("in").asString().equals(in))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + in + " parameter " + name + " in " + operation));
    }
}
