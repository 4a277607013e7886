package dev.orderpipeline.api.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The lab's per-request knobs are bounded; a value out of range is a 400 problem and changes nothing. */
class CheckoutKnobsTests extends StrategyTestSupport {

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
    }
}
