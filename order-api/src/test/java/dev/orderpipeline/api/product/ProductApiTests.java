package dev.orderpipeline.api.product;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProductApiTests extends ApiTestSupport {

    @Test
    void createsAProductAndReadsItBack() {
        var created = api.post("/api/products", """
                {"name": "  Limited sneaker  ", "stock": 5, "price": 129.9}
                """);

        assertThat(created.status()).as(created::toString).isEqualTo(201);
        var product = created.json();
        var id = UUID.fromString(product.get("id").asString());
        assertThat(created.header("Location")).contains("/api/products/" + id);
        assertThat(product.get("name").asString()).isEqualTo("Limited sneaker");
        assertThat(product.get("stock").asInt()).isEqualTo(5);
        assertThat(product.get("price").decimalValue()).isEqualByComparingTo("129.90");
        // no version: the production schema has none, and a writer never needs one (guards sit in its statements)
        assertThat(product.propertyNames())
                .containsExactlyInAnyOrder("id", "name", "stock", "price", "createdAt", "updatedAt");
        assertThat(Instant.parse(product.get("createdAt").asString())).isBeforeOrEqualTo(Instant.now());
        assertThat(product.get("updatedAt").asString()).isNotBlank();

        var read = api.get("/api/products/" + id);

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(product);
    }

    @Test
    void acceptsAFreeProductWithoutStock() {
        var created = api.post("/api/products", """
                {"name": "Sample", "stock": 0, "price": 0}
                """);

        assertThat(created.status()).as(created::toString).isEqualTo(201);
    }

    @Test
    void answersNotFoundForAnUnknownProduct() {
        var id = UUID.randomUUID();

        var response = api.get("/api/products/" + id);

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:product-not-found");
        assertThat(problem.get("title").asString()).isEqualTo("Product not found");
        assertThat(problem.get("status").asInt()).isEqualTo(404);
        assertThat(problem.get("detail").asString()).contains(id.toString());
        assertThat(problem.get("productId").asString()).isEqualTo(id.toString());
        assertThat(problem.get("instance").asString()).isEqualTo("/api/products/" + id);
    }

    static Stream<Arguments> invalidProducts() {
        var validation = "validation-failed";
        var malformed = "malformed-request";
        return Stream.of(
                Arguments.of("blank name", "{\"name\": \"  \", \"stock\": 1, \"price\": 1}", validation, "name"),
                Arguments.of("missing name", "{\"stock\": 1, \"price\": 1}", validation, "name"),
                Arguments.of(
                        "name too long",
                        "{\"name\": \"" + "x".repeat(201) + "\", \"stock\": 1, \"price\": 1}",
                        validation,
                        "name"),
                Arguments.of("negative stock", "{\"name\": \"a\", \"stock\": -1, \"price\": 1}", validation, "stock"),
                Arguments.of("missing stock", "{\"name\": \"a\", \"price\": 1}", validation, "stock"),
                Arguments.of("fractional stock", "{\"name\": \"a\", \"stock\": 1.5, \"price\": 1}", malformed, "stock"),
                Arguments.of("text stock", "{\"name\": \"a\", \"stock\": \"many\", \"price\": 1}", malformed, "stock"),
                Arguments.of("quoted stock", "{\"name\": \"a\", \"stock\": \"3\", \"price\": 1}", malformed, "stock"),
                Arguments.of(
                        "huge stock", "{\"name\": \"a\", \"stock\": 3000000000, \"price\": 1}", malformed, "stock"),
                Arguments.of(
                        "negative price", "{\"name\": \"a\", \"stock\": 1, \"price\": -0.01}", validation, "price"),
                Arguments.of(
                        "three decimals", "{\"name\": \"a\", \"stock\": 1, \"price\": 1.005}", validation, "price"),
                Arguments.of(
                        "price too large", "{\"name\": \"a\", \"stock\": 1, \"price\": 1e12}", validation, "price"),
                Arguments.of("missing price", "{\"name\": \"a\", \"stock\": 1}", validation, "price"),
                Arguments.of("text price", "{\"name\": \"a\", \"stock\": 1, \"price\": \"cheap\"}", malformed, "price"),
                Arguments.of("numeric name", "{\"name\": 42, \"stock\": 1, \"price\": 1}", malformed, "name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidProducts")
    void rejectsAnInvalidProductAndCreatesNothing(String label, String body, String kind, String field) {
        var before = count("product");

        var response = api.post("/api/products", body);

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:" + kind);
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("detail").asString()).contains(field);
        if (kind.equals("validation-failed")) {
            assertThat(problem.get("title").asString()).isEqualTo("Request validation failed");
            assertThat(problem.get("errors").values())
                    .anySatisfy(
                            error -> assertThat(error.get("field").asString()).isEqualTo(field));
        } else {
            assertThat(problem.get("title").asString()).isEqualTo("Malformed request");
            assertThat(problem.get("field").asString()).isEqualTo(field);
        }
        assertThat(count("product")).isEqualTo(before);
    }

    @Test
    void listsEveryInvalidFieldAtOnce() {
        var response = api.post("/api/products", "{\"name\": \"\", \"stock\": -3}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").values())
                .extracting(error -> error.get("field").asString())
                .containsExactlyInAnyOrder("name", "stock", "price");
    }
}
