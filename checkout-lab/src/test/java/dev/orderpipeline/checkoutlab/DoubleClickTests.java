package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.Together;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The outpost article's double click: the same order checked out twice at the same instant, with a 200 ms slow
 * call between the check and the write so that both requests are past the check before either writes. (A pipeline
 * checkout publishes the same command id twice and the worker applies it once; see KafkaCheckoutTests.)
 */
class DoubleClickTests extends LabTestSupport {

    private static final int STOCK = 10;
    private static final String SLOW_CALL = "delayMs=200";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"app-lock", "db-atomic", "for-update", "optimistic", "serializable", "status-claim"})
    void chargesOnceAndRefusesTheSecondClick(String strategy) {
        var productId = createProduct(STOCK, "12.50");
        var buyer = placeOrders(productId, 1).getFirst();

        var statuses = doubleClick(buyer, strategy);

        assertThat(statuses).containsExactlyInAnyOrder(200, 409);
        var report = invariants.check(productId, STOCK);
        assertThat(report.violations()).isEmpty();
        assertThat(report.payments()).isOne();
        assertThat(report.completedOrders()).isOne();
        assertThat(report.stockLeft()).isEqualTo(STOCK - 1);
        assertThat(jdbc.sql("SELECT amount FROM payment WHERE order_id = :id")
                        .param("id", buyer.orderId())
                        .query(java.math.BigDecimal.class)
                        .single())
                .isEqualByComparingTo("12.50");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"naive", "naive-tx"})
    void chargesTheDoubleClickTwice(String strategy) {
        var productId = createProduct(STOCK, "12.50");
        var buyer = placeOrders(productId, 1).getFirst();

        var statuses = doubleClick(buyer, strategy);

        // both clicks were told they completed the order
        assertThat(statuses).containsExactly(200, 200);
        var report = invariants.check(productId, STOCK);
        assertThat(report.payments()).isEqualTo(2);
        assertThat(report.doublePayments()).isOne();
        assertThat(report.completedOrders()).isOne();
        assertThat(report.holds()).isFalse();
    }

    private List<Integer> doubleClick(Buyer buyer, String strategy) {
        Callable<ApiClient.Response> click = () -> checkout(buyer, strategy, SLOW_CALL);
        return Together.run(List.of(click, click)).stream()
                .map(ApiClient.Response::status)
                .toList();
    }
}
