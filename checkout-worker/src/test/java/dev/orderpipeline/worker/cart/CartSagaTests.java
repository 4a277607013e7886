package dev.orderpipeline.worker.cart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.ProductStock;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationReply.LineOutcome;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.TopicReader;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Carts checked out end to end through the running worker: coordinator, reserver, replies, results. */
class CartSagaTests extends CartSagaTest {

    @Autowired
    MeterRegistry meters;

    @Test
    void completesACartEndToEndWithOnePaymentAndItsResultOnTheResultsTopic() {
        var shoes = createProduct(5, "40.00");
        var socks = createProduct(5, "2.50");
        var order = createCart(new Item(shoes, 2), new Item(socks, 4));
        var startedBefore = sagas("started");
        var completedBefore = sagas("completed");
        var reservedBefore = steps("reserve", "reserved");

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
        // other tests' sagas may run meanwhile in this context: at least this one is counted
        assertThat(sagas("started") - startedBefore).isGreaterThanOrEqualTo(1);
        assertThat(sagas("completed") - completedBefore).isGreaterThanOrEqualTo(1);
        assertThat(steps("reserve", "reserved") - reservedBefore).isGreaterThanOrEqualTo(2);
    }

    private double sagas(String event) {
        return meters.get("checkout.sagas").tag("event", event).counter().count();
    }

    private double steps(String action, String outcome) {
        var counter = meters.find("checkout.reservations.steps")
                .tag("action", action)
                .tag("outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void rejectsACartWhoseReservationNeverArrivesAfterTheTimeoutAndReleasesWhatWasReserved() {
        var first = new Item(createProduct(5, "1.00"), 2);
        var second = new Item(createProduct(5, "1.00"), 1);
        var order = createCart(first, second);

        // the saga starts as the coordinator starts it, but only the first line's reservation is ever applied
        var started = coordinator.start(List.of(new Delivery<>(cartCommandFor(order), 0, 0)));
        assertThat(started.steps()).extracting(ReservationCommand::lineNo).containsExactly(1, 2);
        reserver.apply(List.of(new Delivery<>(started.steps().getFirst(), 0, 0)));
        assertThat(lineStatuses(order)).containsExactly("RESERVED", "PENDING");
        assertThat(stock(first.productId())).isEqualTo(3);
        var deadline = jdbc.sql("SELECT checkout_deadline - now() FROM orders WHERE id = :id")
                .param("id", order)
                .query((rs, row) ->
                        rs.getObject(1, org.postgresql.util.PGInterval.class).getWholeSeconds())
                .single();
        assertThat(deadline).as("seconds left, of the configured 8").isBetween(5, 8);

        try (var results = new TopicReader(broker, Topics.CHECKOUT_RESULTS)) {
            awaitSettled(List.of(order), Duration.ofSeconds(40));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !resultsFor(results, order).isEmpty());
            assertThat(resultsFor(results, order))
                    .extracting(CheckoutResult::rejectReason)
                    .containsExactly(RejectReason.RESERVATION_TIMEOUT);
        }
        assertThat(statuses(List.of(order))).containsExactly("REJECTED/RESERVATION_TIMEOUT");
        assertThat(jdbc.sql("SELECT updated_at >= checkout_deadline FROM orders WHERE id = :id")
                        .param("id", order)
                        .query(Boolean.class)
                        .single())
                .as("rejected only once the deadline had passed")
                .isTrue();
        assertThat(lineStatuses(order)).containsExactly("RELEASED", "CANCELLED");
        assertThat(stock(first.productId())).isEqualTo(5);
        // the release published the product's stock, which reopens it at the API's door
        try (var published = new TopicReader(broker, Topics.PRODUCT_STOCK)) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> published.records().stream()
                            .filter(record -> first.productId().toString().equals(record.key()))
                            .map(record -> JSON.readValue(record.value(), ProductStock.class))
                            .reduce((earlier, later) -> later)
                            .map(ProductStock::stock)
                            .orElse(-1)
                            .equals(5));
        }

        // the lost reservation, arriving after all, finds its line cancelled and takes nothing
        var late = reserver.apply(List.of(new Delivery<>(started.steps().get(1), 0, 1)));
        assertThat(late.replies()).extracting(reply -> reply.reply().outcome()).containsExactly(LineOutcome.CANCELLED);
        assertThat(stock(second.productId())).isEqualTo(5);
        assertThat(invariants(first.productId(), 5).violations()).isEmpty();
        assertThat(invariants(second.productId(), 5).violations()).isEmpty();
    }

    @Test
    void settlesManyCartsOverlappingOnHotProductsInOppositeLineOrdersWithoutDeadlockOrDrift() throws Exception {
        var initial = 40;
        var a = createProduct(initial, "3.00");
        var b = createProduct(initial, "5.00");
        var c = createProduct(initial, "7.00");
        var carts = new ArrayList<UUID>();
        for (int i = 0; i < 30; i++) {
            // the deadlock shape for lock code: the same pair of products in both line orders
            carts.add(createCart(new Item(a, 1), new Item(b, 2)));
            carts.add(createCart(new Item(b, 1), new Item(a, 2)));
            carts.add(createCart(new Item(c, 1), new Item(a, 1), new Item(b, 1)));
        }
        var commands = carts.stream().map(this::cartCommandFor).toList();
        var deadlocksBefore = deadlocks();

        var go = new CountDownLatch(1);
        var publishers = 6;
        try (var executor = Executors.newFixedThreadPool(publishers)) {
            var sent = new ArrayList<Future<?>>();
            for (int p = 0; p < publishers; p++) {
                var share = new ArrayList<CartCheckoutCommand>();
                for (int i = p; i < commands.size(); i += publishers) {
                    share.add(commands.get(i));
                }
                sent.add(executor.submit(() -> {
                    go.await();
                    publishCarts(share);
                    return null;
                }));
            }
            go.countDown();
            for (var each : sent) {
                each.get(60, TimeUnit.SECONDS);
            }
        }
        awaitSettled(carts, Duration.ofSeconds(120));

        for (var product : List.of(a, b, c)) {
            var report = invariants(product, initial);
            assertThat(report.violations()).as("product %s", product).isEmpty();
        }
        var statuses = statuses(carts);
        assertThat(statuses).allMatch(status -> status.equals("COMPLETED") || status.startsWith("REJECTED/"));
        // a and b are asked for 150 units each of 40: some carts complete, most are refused
        assertThat(statuses).contains("COMPLETED", "REJECTED/INSUFFICIENT_STOCK");
        assertThat(deadlocks() - deadlocksBefore).as("deadlocks detected").isZero();
        System.out.printf(
                "overlapping carts: %d completed, %d rejected, stock left a=%d b=%d c=%d%n",
                statuses.stream().filter("COMPLETED"::equals).count(),
                statuses.stream()
                        .filter(status -> status.startsWith("REJECTED"))
                        .count(),
                stock(a),
                stock(b),
                stock(c));
    }

    @Test
    void sendsAgainAReleaseLostBetweenTheRejectionsCommitAndItsSendSoNothingStaysHeld() {
        var kept = new Item(createProduct(5, "1.00"), 2);
        var scarce = new Item(createProduct(0, "1.00"), 1);
        var order = createCart(kept, scarce);
        // the coordinator rejects the cart and commits, and its release is never sent
        var rejected = rejectedWithReleaseNotSent(order);
        assertThat(rejected.steps())
                .extracting(ReservationCommand::action)
                .containsExactly(ReservationCommand.Action.RELEASE);
        assertThat(lineStatuses(order)).containsExactly("RELEASING", "REFUSED");
        assertThat(stock(kept.productId())).isEqualTo(3);

        // the sweeper sends it again once the line has been RELEASING for release-resend-after (5 s here)
        awaitSettled(List.of(order), Duration.ofSeconds(40));
        assertThat(lineStatuses(order)).containsExactly("RELEASED", "REFUSED");
        assertThat(stock(kept.productId())).isEqualTo(5);
        assertThat(invariants(kept.productId(), 5).violations()).isEmpty();
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
