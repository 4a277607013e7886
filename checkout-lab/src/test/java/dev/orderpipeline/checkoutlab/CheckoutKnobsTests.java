package dev.orderpipeline.checkoutlab;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The lab's checkout as a client sees it: the decided order in the answer, an unknown strategy refused, and the
 * per-request knobs bounded; a refused request is a 400 problem and changes nothing.
 */
class CheckoutKnobsTests extends LabTestSupport {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"delayMs=-1", "delayMs=10001", "maxAttempts=0", "maxAttempts=10001"})
    void refusesAKnobOutOfRange(String knob) {
        var productId = createProduct(3, "1.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response = checkout(buyer, "optimistic", knob);

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:validation-failed");
        assertThat(problem.get("errors").get(0).get("field").asString())
                .isEqualTo(knob.substring(0, knob.indexOf('=')));
        assertThat(statusInDatabase(buyer.orderId())).isEqualTo("CREATED");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"delayMs=soon", "maxAttempts=many"})
    void refusesAKnobThatIsNotANumber(String knob) {
        var productId = createProduct(3, "1.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response = checkout(buyer, "serializable", knob);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:malformed-request");
        assertThat(statusInDatabase(buyer.orderId())).isEqualTo("CREATED");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "naive",
                "naive-tx",
                "app-lock",
                "db-atomic",
                "for-update",
                "optimistic",
                "serializable",
                "status-claim"
            })
    void answersTheDecidedOrderWithItsPaymentAndReason(String strategy) {
        var productId = createProduct(1, "2.25");
        var buyers = placeOrders(productId, 2);

        var first = checkout(buyers.get(0), strategy, "delayMs=0&maxAttempts=3");
        var second = checkout(buyers.get(1), strategy, "");

        assertThat(first.status()).as(first::toString).isEqualTo(200);
        assertThat(first.json().propertyNames())
                .containsExactlyInAnyOrder(
                        "id", "userId", "productId", "quantity", "status", "rejectReason", "createdAt", "updatedAt");
        assertThat(first.json().get("id").asString())
                .isEqualTo(buyers.get(0).orderId().toString());
        assertThat(first.json().get("status").asString()).isEqualTo("COMPLETED");
        assertThat(first.json().get("rejectReason").isNull()).isTrue();
        assertThat(second.status()).as(second::toString).isEqualTo(200);
        assertThat(second.json().get("status").asString()).isEqualTo("REJECTED");
        assertThat(second.json().get("rejectReason").asString()).isEqualTo("INSUFFICIENT_STOCK");
        var report = invariants.check(productId, 1);
        assertThat(report.violations()).isEmpty();
        assertThat(jdbc.sql("SELECT amount::text || ' ' || status FROM payment WHERE order_id = :id")
                        .param("id", buyers.get(0).orderId())
                        .query(String.class)
                        .list())
                .containsExactly("2.25 CAPTURED");
        // checking out a decided order again is refused by every strategy
        var again = checkout(buyers.get(0), strategy, "");
        assertThat(again.status()).isEqualTo(409);
        // timed under the lab's own name, apart from the pipeline's checkout.requests
        assertThat(meters.get("lab.checkout.requests")
                        .tag("strategy", strategy)
                        .tag("outcome", "completed")
                        .timer()
                        .count())
                .isPositive();
        assertThat(meters.get("lab.checkout.requests")
                        .tag("strategy", strategy)
                        .tag("outcome", "conflict")
                        .timer()
                        .count())
                .isPositive();
    }

    @Test
    void chargesTheUnitPriceTimesTheQuantity() {
        var alice = newUser();
        var order = createOrder(alice, createProduct(10, "12.35"), 3);
        var orderId = order.get("id").asString();

        var response =
                api.post("/api/orders/" + orderId + "/checkout?strategy=db-atomic", null, AUTHORIZATION, bearer(alice));

        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(jdbc.sql("SELECT amount FROM payment WHERE order_id = CAST(:id AS uuid)")
                        .param("id", orderId)
                        .query(BigDecimal.class)
                        .single())
                .isEqualByComparingTo("37.05")
                .satisfies(amount -> assertThat(amount.scale()).isEqualTo(2));
    }

    @Test
    void refusesAnUnknownStrategyAndListsTheKnownOnes() {
        var productId = createProduct(3, "1.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response = checkout(buyer, "telepathy", "");

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:unknown-strategy");
        assertThat(problem.get("title").asString()).isEqualTo("Unknown checkout strategy");
        assertThat(problem.get("detail").asString()).contains("telepathy", "db-atomic");
        assertThat(problem.get("strategy").asString()).isEqualTo("telepathy");
        // the pipeline is not one of the lab's strategies: a production checkout names none
        assertThat(problem.get("strategies").values())
                .extracting(JsonNode::asString)
                .containsExactlyInAnyOrderElementsOf(STRATEGIES);
        assertThat(statusInDatabase(buyer.orderId())).isEqualTo("CREATED");
    }

    @Test
    void sendsACheckoutThatNamesNoStrategyThroughThePipeline() {
        var productId = createProduct(3, "1.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response =
                api.post("/api/orders/" + buyer.orderId() + "/checkout", null, AUTHORIZATION, bearer(buyer.userId()));

        // the production controller, untouched by the lab: accepted for the worker, which does not run here
        assertThat(response.status()).as(response::toString).isEqualTo(202);
        assertThat(response.json().get("commandId")).isNotNull();
        assertThat(statusInDatabase(buyer.orderId())).isEqualTo("CREATED");
    }
}
