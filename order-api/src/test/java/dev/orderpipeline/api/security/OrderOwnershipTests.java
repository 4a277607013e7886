package dev.orderpipeline.api.security;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.TestTokens;
import dev.orderpipeline.api.checkout.CommandTap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A verified token says who is calling, and an order belongs to the user who created it: anyone else, an
 * administrator included, gets the 404 of a missing order, whether reading it or checking it out, and the refused
 * checkout changes nothing (order, stock, payments, the command topic).
 */
class OrderOwnershipTests extends ApiTestSupport {

    @Test
    void anotherCallerCanNeitherSeeNorCheckOutAnOrder() {
        var alice = newUser();
        var productId = createProduct(5, "3.00");
        var orderId = UUID.fromString(createOrder(alice, productId, 2).get("id").asString());
        var payments = count("payment");
        var missing = api.get("/api/orders/" + UUID.randomUUID(), AUTHORIZATION, bearer(alice));

        for (var stranger : new String[] {bearer(newUser()), TestTokens.adminBearer()}) {
            var read = api.get("/api/orders/" + orderId, AUTHORIZATION, stranger);
            var checkout = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, stranger);

            for (var response : new dev.orderpipeline.api.ApiClient.Response[] {read, checkout}) {
                assertThat(response.status()).as(response::toString).isEqualTo(404);
                var problem = response.json();
                assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:order-not-found");
                // indistinguishable from an order that does not exist
                assertThat(problem.propertyNames()).isEqualTo(missing.json().propertyNames());
            }
        }

        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertThat(count("payment")).isEqualTo(payments);
        assertThat(jdbc.sql("SELECT stock FROM product WHERE id = :id")
                        .param("id", productId)
                        .query(Integer.class)
                        .single())
                .isEqualTo(5);
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            for (var poll = 0; poll < 10; poll++) {
                assertThat(tap.pollForProduct(productId))
                        .as("commands of the product")
                        .isEmpty();
            }
        }
        // and the owner still sees it
        assertThat(api.get("/api/orders/" + orderId, AUTHORIZATION, bearer(alice))
                        .status())
                .isEqualTo(200);
    }
}
