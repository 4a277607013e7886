package dev.orderpipeline.worker.cart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.TopicReader;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Carts checked out end to end through the running worker: coordinator, reserver, replies, results. */
class CartSagaTests extends CartSagaTest {

    @Test
    void completesACartEndToEndWithOnePaymentAndItsResultOnTheResultsTopic() {
        var shoes = createProduct(5, "40.00");
        var socks = createProduct(5, "2.50");
        var order = createCart(new Item(shoes, 2), new Item(socks, 4));

        try (var results = new TopicReader(broker, Topics.CHECKOUT_RESULTS);
                var steps = new TopicReader(broker, Topics.CHECKOUT_RESERVATIONS)) {
            publishCarts(List.of(cartCommandFor(order)));
            awaitSettled(List.of(order), Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !resultsFor(results, order).isEmpty());

            var result = resultsFor(results, order).getFirst();
            assertThat(result.outcome()).isEqualTo(CheckoutOutcome.COMPLETED);
            assertThat(result.productId()).isNull();
            assertThat(result.duplicate()).isFalse();
            var reserves = steps.records().stream()
                    .filter(record -> order.toString().equals(TopicReader.header(record, Headers.ORDER_ID)))
                    .toList();
            assertThat(reserves)
                    .extracting(record -> TopicReader.header(record, Headers.COMMAND_TYPE))
                    .containsExactly("reserve", "reserve");
            assertThat(reserves)
                    .extracting(record -> record.key())
                    .containsExactlyInAnyOrder(shoes.toString(), socks.toString());
        }
        assertThat(statuses(List.of(order))).containsExactly("COMPLETED");
        assertThat(lineStatuses(order)).containsExactly("SOLD", "SOLD");
        assertThat(stock(shoes)).isEqualTo(3);
        assertThat(stock(socks)).isEqualTo(1);
        var payments = payments(List.of(order));
        assertThat(payments.getFirst().count()).isEqualTo(1);
        assertThat(payments.getFirst().total()).isEqualByComparingTo(new BigDecimal("90.00"));
    }

    @Test
    void rejectsACartWithALineOutOfStockAndReleasesWhatItsOtherLinesReserved() {
        var plenty = createProduct(10, "1.00");
        var scarce = createProduct(1, "1.00");
        var alsoPlenty = createProduct(10, "1.00");
        var order = createCart(new Item(plenty, 3), new Item(scarce, 2), new Item(alsoPlenty, 1));

        try (var results = new TopicReader(broker, Topics.CHECKOUT_RESULTS)) {
            publishCarts(List.of(cartCommandFor(order)));
            awaitSettled(List.of(order), Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !resultsFor(results, order).isEmpty());
            assertThat(resultsFor(results, order))
                    .extracting(CheckoutResult::outcome, CheckoutResult::rejectReason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(
                            CheckoutOutcome.REJECTED, RejectReason.INSUFFICIENT_STOCK));
        }
        assertThat(statuses(List.of(order))).containsExactly("REJECTED/INSUFFICIENT_STOCK");
        // the scarce line was refused; each other line was either reserved and released, or cancelled before its
        // reservation arrived
        var lines = lineStatuses(order);
        assertThat(lines.get(1)).isEqualTo("REFUSED");
        assertThat(List.of(lines.get(0), lines.get(2))).allMatch(s -> s.equals("RELEASED") || s.equals("CANCELLED"));
        assertThat(stock(plenty)).isEqualTo(10);
        assertThat(stock(scarce)).isEqualTo(1);
        assertThat(stock(alsoPlenty)).isEqualTo(10);
        assertThat(payments(List.of(order)).getFirst().count()).isZero();
    }
}
