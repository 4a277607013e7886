package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The retrying strategies give up after their limit with a reason of their own on the order, and giving up never
 * breaks the books: a loser wrote nothing.
 */
class RetryLimitTests extends LabTestSupport {

    private static final int STOCK = 100;
    private static final int BUYERS = 40;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"optimistic, OPTIMISTIC_RETRIES_EXHAUSTED", "serializable, SERIALIZATION_RETRIES_EXHAUSTED"})
    void rejectsWithItsReasonOnceTheAttemptsRunOut(String strategy, String reason) {
        var productId = createProduct(STOCK, "3.00");
        var buyers = placeOrders(productId, BUYERS);

        var race = race(strategy, productId, STOCK, buyers, "delayMs=50&maxAttempts=1", i -> api);

        assertThat(race.statuses()).isEqualTo(Map.of(200, (long) BUYERS));
        var report = race.report();
        assertThat(report.rejectionsByReason()).containsOnlyKeys(reason);
        assertThat(report.rejectionsByReason().get(reason)).isPositive();
        assertThat(report.completedOrders()).isPositive();
        assertThat(report.completedOrders() + report.rejectedOrders()).isEqualTo(BUYERS);
        assertThat(report.violations()).isEmpty();
        assertThat(report.drift()).isZero();
        assertThat(report.stockLeft()).isEqualTo(STOCK - report.completedOrders());
        var rejected = jdbc.sql(
                        "SELECT status, reject_reason FROM orders WHERE product_id = :p AND status = 'REJECTED'")
                .param("p", productId)
                .query((row, n) -> row.getString("reject_reason"))
                .list();
        assertThat(rejected).containsOnly(reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"optimistic", "serializable"})
    void retriesUntilEveryBuyerHasARealAnswer(String strategy) {
        var productId = createProduct(10, "3.00");
        var buyers = placeOrders(productId, BUYERS);

        var race = race(strategy, productId, 10, buyers, "delayMs=10", i -> api);

        assertExact(race.report(), 10, BUYERS);
        assertThat(race.retries()).isPositive();
    }
}
