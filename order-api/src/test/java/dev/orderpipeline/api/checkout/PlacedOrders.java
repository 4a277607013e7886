package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Orders for the checkout tests that run a context of their own, outside {@code ApiTestSupport}. */
final class PlacedOrders {

    private PlacedOrders() {}

    /** A fresh product with a little stock, and one unit of it ordered by {@code userId}, through the API. */
    static UUID place(ApiClient api, String userId) {
        var product = api.post("/api/products", "{\"name\": \"Hot\", \"stock\": 5, \"price\": 5}");
        assertThat(product.status()).as(product::toString).isEqualTo(201);
        var order = api.post(
                "/api/orders",
                "{\"productId\": \"%s\", \"quantity\": 1}"
                        .formatted(product.json().get("id").asString()),
                "Authorization",
                bearer(userId));
        assertThat(order.status()).as(order::toString).isEqualTo(201);
        return UUID.fromString(order.json().get("id").asString());
    }

    /** The order's status as the database has it. */
    static String statusOf(JdbcClient jdbc, UUID orderId) {
        return jdbc.sql("SELECT status FROM orders WHERE id = :id")
                .param("id", orderId)
                .query(String.class)
                .single();
    }
}
