package dev.orderpipeline.api.order;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Orders placed as {@code lines}: carts of several products, and lines that come down to one product. */
class CartOrderTests extends ApiTestSupport {

    @Test
    void placesACartWithItsLinesPendingAndReadsItBack() {
        var alice = newUser();
        var first = createProduct(5, "2.50");
        var second = createProduct(5, "4.00");

        var response = placeLines(alice, line(first, 2), line(second, 1));

        assertThat(response.status()).as(response::toString).isEqualTo(201);
        var order = response.json();
        var id = UUID.fromString(order.get("id").asString());
        assertThat(response.header("Location")).contains("/api/orders/" + id);
        assertThat(order.get("userId").asString()).isEqualTo(alice);
        assertThat(order.get("status").asString()).isEqualTo("CREATED");
        // a cart has no product of its own: the fields of today's contract are there, and null
        assertThat(order.get("productId").isNull()).isTrue();
        assertThat(order.get("quantity").isNull()).isTrue();
        assertThat(lines(order))
                .containsExactly(new Line(1, first, 2, "PENDING", null), new Line(2, second, 1, "PENDING", null));
        assertThat(api.get("/api/orders/" + id, AUTHORIZATION, bearer(alice)).json())
                .isEqualTo(order);
        assertThat(jdbc.sql("SELECT product_id IS NULL AND quantity IS NULL FROM orders WHERE id = :id")
                        .param("id", id)
                        .query(Boolean.class)
                        .single())
                .isTrue();
        assertThat(linesInDatabase(id)).containsExactly(first + " 2 PENDING", second + " 1 PENDING");
    }

    @Test
    void placesLinesOfOneProductAsASingleProductOrder() {
        var alice = newUser();
        var product = createProduct(5, "2.50");

        var response = placeLines(alice, line(product, 3));

        assertThat(response.status()).as(response::toString).isEqualTo(201);
        var order = response.json();
        var id = UUID.fromString(order.get("id").asString());
        assertThat(order.get("productId").asString()).isEqualTo(product.toString());
        assertThat(order.get("quantity").asInt()).isEqualTo(3);
        assertThat(lines(order)).containsExactly(new Line(1, product, 3, "PENDING", null));
        // stored exactly as {"productId", "quantity"} is: the order row carries the product, and no line rows
        assertThat(jdbc.sql("SELECT product_id FROM orders WHERE id = :id")
                        .param("id", id)
                        .query(UUID.class)
                        .single())
                .isEqualTo(product);
        assertThat(linesInDatabase(id)).isEmpty();
        var asToday = api.post(
                "/api/orders",
                "{\"productId\": \"%s\", \"quantity\": 3}".formatted(product),
                AUTHORIZATION,
                bearer(alice));
        assertThat(withoutIdentity(order)).isEqualTo(withoutIdentity(asToday.json()));
    }

    @Test
    void mergesLinesOfTheSameProductWhereItWasFirstListed() {
        var alice = newUser();
        var first = createProduct(9, "1.00");
        var second = createProduct(9, "1.00");

        var cart = placeLines(alice, line(first, 1), line(second, 2), line(first, 3));
        var single = placeLines(alice, line(first, 1), line(first, 2));

        assertThat(cart.status()).as(cart::toString).isEqualTo(201);
        assertThat(lines(cart.json()))
                .containsExactly(new Line(1, first, 4, "PENDING", null), new Line(2, second, 2, "PENDING", null));
        assertThat(single.status()).as(single::toString).isEqualTo(201);
        assertThat(single.json().get("productId").asString()).isEqualTo(first.toString());
        assertThat(single.json().get("quantity").asInt()).isEqualTo(3);
    }

    @Test
    void showsEachLineWithItsOwnState() {
        var alice = newUser();
        var first = createProduct(9, "1.00");
        var second = createProduct(9, "1.00");
        var id = UUID.fromString(placeLines(alice, line(first, 1), line(second, 2))
                .json()
                .get("id")
                .asString());
        jdbc.sql("UPDATE order_line SET status = 'RELEASED' WHERE order_id = :id AND line_no = 1")
                .param("id", id)
                .update();
        jdbc.sql("""
                        UPDATE order_line SET status = 'REFUSED', reject_reason = 'INSUFFICIENT_STOCK'
                         WHERE order_id = :id AND line_no = 2
                        """).param("id", id).update();
        jdbc.sql("UPDATE orders SET status = 'REJECTED', reject_reason = 'INSUFFICIENT_STOCK' WHERE id = :id")
                .param("id", id)
                .update();

        var order = api.get("/api/orders/" + id, AUTHORIZATION, bearer(alice)).json();

        assertThat(order.get("status").asString()).isEqualTo("REJECTED");
        assertThat(lines(order))
                .containsExactly(
                        new Line(1, first, 1, "RELEASED", null),
                        new Line(2, second, 2, "REFUSED", "INSUFFICIENT_STOCK"));
    }

    @Test
    void showsTheLineOfASingleProductOrderInTheOrdersState() {
        var alice = newUser();
        var product = createProduct(3, "1.00");
        var id = UUID.fromString(createOrder(alice, product, 2).get("id").asString());
        jdbc.sql("UPDATE orders SET status = 'REJECTED', reject_reason = 'INSUFFICIENT_STOCK' WHERE id = :id")
                .param("id", id)
                .update();

        var order = api.get("/api/orders/" + id, AUTHORIZATION, bearer(alice)).json();

        assertThat(lines(order)).containsExactly(new Line(1, product, 2, "REFUSED", "INSUFFICIENT_STOCK"));
    }

    static Stream<Arguments> invalidCarts() {
        var a = "\"" + UUID.randomUUID() + "\"";
        var b = "\"" + UUID.randomUUID() + "\"";
        var tooMany = IntStream.rangeClosed(1, 21)
                .mapToObj(i -> "{\"productId\": \"" + UUID.randomUUID() + "\", \"quantity\": 1}")
                .collect(Collectors.joining(", ", "{\"lines\": [", "]}"));
        return Stream.of(
                Arguments.of(
                        "both shapes",
                        "{\"productId\": " + a + ", \"quantity\": 1, \"lines\": [{\"productId\": " + b
                                + ", \"quantity\": 1}]}",
                        List.of("lines")),
                Arguments.of(
                        "lines and a quantity",
                        "{\"quantity\": 1, \"lines\": [{\"productId\": " + b + ", \"quantity\": 1}]}",
                        List.of("lines")),
                Arguments.of("no lines", "{\"lines\": []}", List.of("lines")),
                Arguments.of("too many lines", tooMany, List.of("lines")),
                Arguments.of(
                        "zero quantity",
                        "{\"lines\": [{\"productId\": " + a + ", \"quantity\": 1}, {\"productId\": " + b
                                + ", \"quantity\": 0}]}",
                        List.of("lines[1].quantity")),
                Arguments.of(
                        "negative quantity",
                        "{\"lines\": [{\"productId\": " + a + ", \"quantity\": -1}]}",
                        List.of("lines[0].quantity")),
                Arguments.of(
                        "missing product",
                        "{\"lines\": [{\"quantity\": 1}, {\"productId\": " + b + ", \"quantity\": 1}]}",
                        List.of("lines[0].productId")),
                Arguments.of(
                        "null line",
                        "{\"lines\": [null, {\"productId\": " + b + ", \"quantity\": 1}]}",
                        List.of("lines[0]")),
                Arguments.of(
                        "merged quantity beyond an integer",
                        "{\"lines\": [{\"productId\": " + a + ", \"quantity\": 2147483647}, {\"productId\": " + a
                                + ", \"quantity\": 1}]}",
                        List.of("lines")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidCarts")
    void refusesAnInvalidCartAndPlacesNothing(String label, String body, List<String> fields) {
        var orders = count("orders");
        var lines = count("order_line");

        var response = api.post("/api/orders", body, AUTHORIZATION, bearer(newUser()));

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:validation-failed");
        assertThat(problem.get("errors")
                        .valueStream()
                        .map(error -> error.get("field").asString()))
                .containsExactlyElementsOf(fields);
        assertThat(count("orders")).isEqualTo(orders);
        assertThat(count("order_line")).isEqualTo(lines);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedCarts")
    void refusesMalformedLinesAndPlacesNothing(String label, String body) {
        var orders = count("orders");

        var response = api.post("/api/orders", body, AUTHORIZATION, bearer(newUser()));

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:malformed-request");
        assertThat(count("orders")).isEqualTo(orders);
    }

    static Stream<Arguments> malformedCarts() {
        var a = "\"" + UUID.randomUUID() + "\"";
        return Stream.of(
                Arguments.of("lines as text", "{\"lines\": \"two\"}"),
                Arguments.of("a line as an array", "{\"lines\": [[1, 2]]}"),
                Arguments.of("text quantity", "{\"lines\": [{\"productId\": " + a + ", \"quantity\": \"two\"}]}"),
                Arguments.of("invalid product id", "{\"lines\": [{\"productId\": \"nope\", \"quantity\": 1}]}"),
                Arguments.of(
                        "quantity beyond an integer",
                        "{\"lines\": [{\"productId\": " + a + ", \"quantity\": 99999999999}]}"));
    }

    @Test
    void refusesACartWithAnUnknownProductAndNamesIt() {
        var known = createProduct(3, "1.00");
        var unknown = UUID.randomUUID();
        var orders = count("orders");
        var lines = count("order_line");

        var response = placeLines(newUser(), line(known, 1), line(unknown, 1), line(UUID.randomUUID(), 1));

        assertThat(response.status()).as(response::toString).isEqualTo(404);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:product-not-found");
        assertThat(problem.get("productId").asString()).isEqualTo(unknown.toString());
        assertThat(count("orders")).isEqualTo(orders);
        assertThat(count("order_line")).isEqualTo(lines);
    }

    @Test
    void refusesACartWhoseAmountOverAllLinesIsMoreThanAPaymentHolds() {
        // each line fits a payment on its own; together they do not
        var first = createProduct(1, "9999999999.99");
        var second = createProduct(1, "9999999999.99");
        var orders = count("orders");

        var response = placeLines(newUser(), line(first, 60), line(second, 60));

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:validation-failed");
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("lines");
        assertThat(problem.get("detail").asString()).contains("1199999999998.80");
        assertThat(count("orders")).isEqualTo(orders);
    }

    private record Line(int lineNo, UUID productId, int quantity, String status, String rejectReason) {}

    private static String line(UUID productId, int quantity) {
        return "{\"productId\": \"%s\", \"quantity\": %d}".formatted(productId, quantity);
    }

    private ApiClient.Response placeLines(String userId, String... lines) {
        return api.post(
                "/api/orders", "{\"lines\": [" + String.join(", ", lines) + "]}", AUTHORIZATION, bearer(userId));
    }

    private static List<Line> lines(JsonNode order) {
        return order.get("lines")
                .valueStream()
                .map(line -> new Line(
                        line.get("lineNo").asInt(),
                        UUID.fromString(line.get("productId").asString()),
                        line.get("quantity").asInt(),
                        line.get("status").asString(),
                        line.get("rejectReason").isNull()
                                ? null
                                : line.get("rejectReason").asString()))
                .toList();
    }

    /** The order as the client asked for it: without what each placing makes anew. */
    private static JsonNode withoutIdentity(JsonNode order) {
        var copy = (ObjectNode) order.deepCopy();
        copy.remove(List.of("id", "createdAt", "updatedAt"));
        return copy;
    }

    private List<String> linesInDatabase(UUID orderId) {
        return jdbc.sql("SELECT product_id || ' ' || quantity || ' ' || status FROM order_line"
                        + " WHERE order_id = :id ORDER BY line_no")
                .param("id", orderId)
                .query(String.class)
                .list();
    }
}
