package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A checkout whose stock write fails in the database: a trigger installed for one product refuses every update of
 * its row. The API answers a 503 problem, never a 500; what it leaves behind depends on the strategy.
 */
class DatabaseFailureTests extends LabTestSupport {

    private static final int STOCK = 5;

    @Test
    void naiveLeavesAPaymentOnAnOrderThatNeverCompleted() {
        var productId = createProduct(STOCK, "7.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response = withStockWritesRefused(productId, () -> checkout(buyer, "naive", ""));

        assertDatabaseUnavailable(response, buyer, "naive");
        var report = invariants.check(productId, STOCK);
        // the payment was committed before the stock write failed: a half-done checkout
        assertThat(report.payments()).isOne();
        assertThat(report.paymentsWithoutCompletion()).isOne();
        assertThat(report.stockLeft()).isEqualTo(STOCK);
        assertThat(report.ordersNotFinal()).isOne();
        assertThat(statusInDatabase(buyer.orderId())).isEqualTo("CREATED");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"naive-tx", "app-lock", "db-atomic", "for-update", "optimistic", "serializable"})
    void aTransactionalStrategyLeavesNothingBehind(String strategy) {
        var productId = createProduct(STOCK, "7.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response = withStockWritesRefused(productId, () -> checkout(buyer, strategy, ""));

        assertDatabaseUnavailable(response, buyer, strategy);
        var report = invariants.check(productId, STOCK);
        assertThat(report.payments()).isZero();
        assertThat(report.stockLeft()).isEqualTo(STOCK);
        assertThat(statusInDatabase(buyer.orderId())).isEqualTo("CREATED");
        var retry = checkout(buyer, strategy, "");
        assertThat(retry.status()).as(retry::toString).isEqualTo(200);
        assertThat(invariants.check(productId, STOCK).holds()).isTrue();
    }

    @Test
    void statusClaimRejectsItsClaimedOrderWithCheckoutFailedInsteadOfHandingItBack() {
        var productId = createProduct(STOCK, "7.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response = withStockWritesRefused(productId, () -> checkout(buyer, "status-claim", ""));

        assertDatabaseUnavailable(response, buyer, "status-claim");
        // nothing taken, nothing charged, and the order decided for good: a pipeline checkout that saw it claimed
        // may have recorded its command as done, so an order back in CREATED could never be decided again
        var report = invariants.check(productId, STOCK);
        assertThat(report.payments()).isZero();
        assertThat(report.stockLeft()).isEqualTo(STOCK);
        assertThat(report.ordersNotFinal()).isZero();
        assertThat(report.rejectionsByReason()).isEqualTo(Map.of("CHECKOUT_FAILED", 1L));
        assertThat(report.violations()).isEmpty();
        assertThat(decisionInDatabase(buyer.orderId())).isEqualTo("REJECTED CHECKOUT_FAILED");
        var retry = checkout(buyer, "status-claim", "");
        assertThat(retry.status()).as(retry::toString).isEqualTo(409);
        assertThat(retry.json().get("orderStatus").asString()).isEqualTo("REJECTED");
    }

    private String decisionInDatabase(UUID orderId) {
        return jdbc.sql("SELECT status || ' ' || reject_reason FROM orders WHERE id = :id")
                .param("id", orderId)
                .query(String.class)
                .single();
    }

    private void assertDatabaseUnavailable(
            dev.orderpipeline.api.ApiClient.Response response, Buyer buyer, String strategy) {
        assertThat(response.status()).as(response::toString).isEqualTo(503);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.header("Retry-After")).hasValue("5");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:database-unavailable");
        assertThat(problem.get("title").asString()).isEqualTo("Database unavailable");
        assertThat(problem.get("orderId").asString()).isEqualTo(buyer.orderId().toString());
        assertThat(problem.get("strategy").asString()).isEqualTo(strategy);
    }

    private <T> T withStockWritesRefused(UUID productId, java.util.function.Supplier<T> action) {
        var trigger = "refuse_stock_write_" + productId.toString().replace("-", "");
        jdbc.sql("""
                CREATE OR REPLACE FUNCTION test_refuse_stock_write() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'stock writes of product % are refused by the test', OLD.id;
                END
                $$
                """).update();
        jdbc.sql("CREATE TRIGGER " + trigger + " BEFORE UPDATE ON product FOR EACH ROW WHEN (OLD.id = '" + productId
                        + "') EXECUTE FUNCTION test_refuse_stock_write()")
                .update();
        try {
            return action.get();
        } finally {
            jdbc.sql("DROP TRIGGER " + trigger + " ON product").update();
        }
    }
}
