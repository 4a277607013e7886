package dev.orderpipeline.checkoutlab;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class InvariantEndpointTests extends LabTestSupport {

    @Test
    void reportsTheInvariantsAndWhatTheyDerive() {
        var alice = newUser();
        var bob = newUser();
        var productId = createProduct(10, "5.00");
        var completed = createOrder(alice, productId, 3).get("id").asString();
        createOrder(bob, productId, 1);
        assertThat(api.post(
                                "/api/orders/" + completed + "/checkout?strategy=db-atomic",
                                null,
                                AUTHORIZATION,
                                bearer(alice))
                        .status())
                .isEqualTo(200);

        var response = api.get("/api/lab/products/" + productId + "/invariants?initialStock=10");

        assertThat(response.status()).as(response::toString).isEqualTo(200);
        var report = response.json();
        assertThat(report.get("productId").asString()).isEqualTo(productId.toString());
        assertThat(report.get("initialStock").asInt()).isEqualTo(10);
        assertThat(report.get("stockLeft").asInt()).isEqualTo(7);
        assertThat(report.get("completedOrders").asLong()).isEqualTo(1);
        assertThat(report.get("completedQuantity").asLong()).isEqualTo(3);
        assertThat(report.get("rejectedOrders").asLong()).isZero();
        assertThat(report.get("rejectionsByReason").isObject()).isTrue();
        assertThat(report.get("rejectionsByReason").size()).isZero();
        assertThat(report.get("ordersNotFinal").asLong()).isEqualTo(1);
        assertThat(report.get("payments").asLong()).isEqualTo(1);
        assertThat(report.get("ordersPaidMoreThanOnce").asLong()).isZero();
        assertThat(report.get("paymentsWithoutCompletion").asLong()).isZero();
        assertThat(report.get("oversold").asBoolean()).isFalse();
        assertThat(report.get("drift").asLong()).isZero();
        assertThat(report.get("doublePayments").asLong()).isZero();
        // bob's order was never checked out
        assertThat(report.get("holds").asBoolean()).isFalse();
        assertThat(report.get("violations").size()).isOne();
        assertThat(report.get("violations").get(0).asString()).startsWith("not final: 1");
    }

    @Test
    void showsDriftWhenTheInitialStockDoesNotAddUp() {
        var productId = createProduct(10, "5.00");

        var report = api.get("/api/lab/products/" + productId + "/invariants?initialStock=12")
                .json();

        assertThat(report.get("drift").asLong()).isEqualTo(-2);
        assertThat(report.get("holds").asBoolean()).isFalse();
        assertThat(report.get("violations").get(0).asString()).startsWith("drift:");
    }

    @Test
    void answersAnUnknownProductWithANotFoundProblem() {
        var productId = UUID.randomUUID();

        var response = api.get("/api/lab/products/" + productId + "/invariants?initialStock=10");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:product-not-found");
        assertThat(problem.get("productId").asString()).isEqualTo(productId.toString());
    }

    @Test
    void requiresTheInitialStock() {
        var productId = createProduct(10, "5.00");

        var response = api.get("/api/lab/products/" + productId + "/invariants");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:malformed-request");
        assertThat(response.json().get("detail").asString()).contains("initialStock");
    }

    @Test
    void refusesANegativeInitialStock() {
        var productId = createProduct(10, "5.00");

        var response = api.get("/api/lab/products/" + productId + "/invariants?initialStock=-1");

        assertThat(response.status()).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:validation-failed");
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("initialStock");
    }
}
