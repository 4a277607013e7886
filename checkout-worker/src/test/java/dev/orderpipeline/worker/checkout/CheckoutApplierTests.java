package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.RejectReason;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The applier called directly with deliveries, as the listener calls it, to pin down batches exactly. */
class CheckoutApplierTests extends WorkerIntegrationTest {

    @Autowired
    CheckoutApplier applier;

    @Autowired
    MeterRegistry meters;

    @Test
    void appliesABatchTwiceWithoutChangingAnythingTheSecondTime() {
        var product = createProduct(3, "7.50");
        var orders = createOrders(product, 5, 1);
        var batch = deliveries(commandsFor(orders));
        var duplicatesBefore = commandsCounted("duplicate");

        var first = applier.apply(batch);
        var second = applier.apply(batch);

        assertThat(first.results()).extracting(CheckoutResult::duplicate).containsOnly(false);
        assertThat(second.results()).extracting(CheckoutResult::duplicate).containsOnly(true);
        assertThat(outcomesByOrder(second.results())).isEqualTo(outcomesByOrder(first.results()));
        assertThat(statuses(orders))
                .containsExactly(
                        "COMPLETED",
                        "COMPLETED",
                        "COMPLETED",
                        "REJECTED/INSUFFICIENT_STOCK",
                        "REJECTED/INSUFFICIENT_STOCK");
        assertThat(stock(product)).isZero();
        assertThat(payments(orders)).extracting(Payments::count).containsOnly(0, 1);
        assertThat(payments(orders).stream().mapToInt(Payments::count).sum()).isEqualTo(3);
        assertThat(commandsCounted("duplicate") - duplicatesBefore).isEqualTo(5);
    }

    private double commandsCounted(String outcome) {
        return meters.get("checkout.commands").tag("outcome", outcome).counter().count();
    }

    @Test
    void appliesACommandDeliveredTwiceInOneBatchOnceAndReportsTheSecondAsDuplicate() {
        var product = createProduct(10, "2.00");
        var order = createOrders(product, 1, 3).getFirst();
        var command = commandFor(order);

        var applied =
                applier.apply(List.of(new CheckoutDelivery(command, 0, 10), new CheckoutDelivery(command, 0, 11)));

        assertThat(applied.results()).hasSize(2);
        assertThat(applied.results()).extracting(CheckoutResult::outcome).containsOnly(CheckoutOutcome.COMPLETED);
        assertThat(applied.results()).extracting(CheckoutResult::duplicate).containsExactlyInAnyOrder(false, true);
        assertThat(stock(product)).isEqualTo(7);
        assertThat(payments(List.of(order)).getFirst().count()).isEqualTo(1);
        assertThat(payments(List.of(order)).getFirst().total()).isEqualByComparingTo(new BigDecimal("6.00"));
    }

    @Test
    void decidesABatchOfMixedQuantitiesAndTwoProductsInOffsetOrderFromTheLockedStock() {
        var product = createProduct(4, "3.00");
        var otherProduct = createProduct(3, "5.00");
        var takesTwo = createOrders(product, 1, 2).getFirst();
        var takesAll = createOrders(otherProduct, 1, 3).getFirst();
        var doesNotFit = createOrders(product, 1, 3).getFirst();
        var fitsAfterIt = createOrders(product, 1, 1).getFirst();
        var nothingLeft = createOrders(otherProduct, 1, 1).getFirst();
        var takesTheLast = createOrders(product, 1, 1).getFirst();
        var tooLate = createOrders(product, 1, 1).getFirst();
        var orders = List.of(takesTwo, takesAll, doesNotFit, fitsAfterIt, nothingLeft, takesTheLast, tooLate);

        var applied = applier.apply(deliveries(commandsFor(orders)));

        assertThat(applied.invalid()).isEmpty();
        assertThat(applied.results()).extracting(CheckoutResult::duplicate).containsOnly(false);
        assertThat(statuses(orders))
                .containsExactly(
                        "COMPLETED",
                        "COMPLETED",
                        "REJECTED/INSUFFICIENT_STOCK",
                        "COMPLETED",
                        "REJECTED/INSUFFICIENT_STOCK",
                        "COMPLETED",
                        "REJECTED/INSUFFICIENT_STOCK");
        assertThat(stock(product)).isZero();
        assertThat(stock(otherProduct)).isZero();
        assertThat(payments(orders))
                .extracting(p -> orders.indexOf(p.orderId()) + " " + p.count() + " " + p.total())
                .containsExactlyInAnyOrder("0 1 6.00", "1 1 15.00", "2 0 0", "3 1 3.00", "4 0 0", "5 1 3.00", "6 0 0");
    }

    @Test
    void givesWhatALargerOrderCouldNotTakeToASmallerOneAfterIt() {
        var product = createProduct(5, "1.00");
        var tooBig = createOrders(product, 2, 3);
        var fits = createOrders(product, 1, 2).getFirst();
        var orders = List.of(tooBig.get(0), tooBig.get(1), fits);

        applier.apply(deliveries(commandsFor(orders)));

        // 3 of 5 go to the first order, the second 3 does not fit in the 2 left, and the last 2 take them
        assertThat(statuses(orders)).containsExactly("COMPLETED", "REJECTED/INSUFFICIENT_STOCK", "COMPLETED");
        assertThat(stock(product)).isZero();
    }

    @Test
    void rejectsAnOrderThatIsNoLongerCreatedWithoutTakingStock() {
        var product = createProduct(10, "2.00");
        var order = createOrders(product, 1, 1).getFirst();
        // decided by another writer before the command arrived
        jdbc.sql("UPDATE orders SET status = 'REJECTED', reject_reason = 'INSUFFICIENT_STOCK' WHERE id = :id")
                .param("id", order)
                .update();

        var applied = applier.apply(deliveries(List.of(commandFor(order))));

        assertThat(applied.results()).singleElement().satisfies(result -> {
            assertThat(result.outcome()).isEqualTo(CheckoutOutcome.REJECTED);
            assertThat(result.rejectReason()).isEqualTo(RejectReason.ORDER_NOT_CREATED);
        });
        assertThat(statuses(List.of(order))).containsExactly("REJECTED/INSUFFICIENT_STOCK");
        assertThat(stock(product)).isEqualTo(10);
        assertThat(payments(List.of(order)).getFirst().count()).isZero();
    }

    @Test
    void setsAsideACommandThatFailsOnItsOwnAndAppliesTheOthers() {
        var product = createProduct(100, "4.00");
        var good = createOrders(product, 2, 1);
        // price x quantity overflows payment.amount numeric(14,2): the schema refuses the payment
        var pricey = createProduct(5000, "9999999999.99");
        var bad = createOrders(pricey, 1, 1000).getFirst();
        var batch = deliveries(commandsFor(List.of(good.get(0), bad, good.get(1))));

        var applied = applier.apply(batch);

        assertThat(applied.invalid()).singleElement().satisfies(invalid -> {
            assertThat(invalid.delivery().command().orderId()).isEqualTo(bad);
            assertThat(invalid.reason()).contains("cannot be applied").contains("overflow");
        });
        assertThat(applied.results()).extracting(CheckoutResult::orderId).containsExactlyInAnyOrderElementsOf(good);
        assertThat(statuses(good)).containsOnly("COMPLETED");
        assertThat(statuses(List.of(bad))).containsExactly("CREATED");
        assertThat(stock(pricey)).isEqualTo(5000);
        assertThat(decidedCount(List.of(bad))).isZero();
    }

    @RepeatedTest(5)
    void twoAppliersRacingOverTheSameBatchApplyItOnce() throws Exception {
        var product = createProduct(30, "2.50");
        var orders = createOrders(product, 50, 1);
        var batch = deliveries(commandsFor(orders));

        var results = race(batch, batch);

        assertInvariants(product, 30, orders);
        assertThat(results.stream().filter(result -> !result.duplicate()))
                .extracting(CheckoutResult::orderId)
                .containsExactlyInAnyOrderElementsOf(orders);
        assertThat(results.stream().filter(CheckoutResult::duplicate)).hasSize(50);
    }

    @RepeatedTest(5)
    void twoAppliersRacingOverOverlappingBatchesNeitherDeadlockNorOversell() throws Exception {
        var product = createProduct(30, "2.50");
        var otherProduct = createProduct(30, "1.00");
        var orders = createOrders(product, 40, 1);
        var otherOrders = createOrders(otherProduct, 40, 1);
        // each batch holds both products, and the two batches share half of their orders
        var first = deliveries(
                commandsFor(Stream.concat(orders.subList(0, 30).stream(), otherOrders.subList(10, 40).stream())
                        .toList()));
        var second = deliveries(
                commandsFor(Stream.concat(otherOrders.subList(0, 30).stream(), orders.subList(10, 40).stream())
                        .toList()));

        var results = race(first, second);

        assertInvariants(product, 30, orders);
        assertInvariants(otherProduct, 30, otherOrders);
        var all = Stream.concat(orders.stream(), otherOrders.stream()).toList();
        assertThat(results.stream().filter(result -> !result.duplicate()))
                .extracting(CheckoutResult::orderId)
                .containsExactlyInAnyOrderElementsOf(all);
    }

    /** Runs two appliers released at the same moment and returns all their results. */
    private List<CheckoutResult> race(List<CheckoutDelivery> first, List<CheckoutDelivery> second) throws Exception {
        var barrier = new CyclicBarrier(2);
        try (var executor = Executors.newFixedThreadPool(2)) {
            var a = executor.submit(() -> {
                barrier.await(10, TimeUnit.SECONDS);
                return applier.apply(first);
            });
            var b = executor.submit(() -> {
                barrier.await(10, TimeUnit.SECONDS);
                return applier.apply(second);
            });
            var results = new ArrayList<CheckoutResult>();
            for (var applied : List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS))) {
                assertThat(applied.invalid()).isEmpty();
                results.addAll(applied.results());
            }
            return results;
        }
    }

    /** Read from the database: no oversell, no double decrement, one payment per completed order. */
    private void assertInvariants(UUID product, int initialStock, List<UUID> orders) {
        var statuses = statuses(orders);
        var completed = statuses.stream().filter("COMPLETED"::equals).count();
        assertThat(statuses).containsOnly("COMPLETED", "REJECTED/INSUFFICIENT_STOCK");
        assertThat(stock(product)).isGreaterThanOrEqualTo(0);
        assertThat(stock(product) + completed).isEqualTo(initialStock);
        assertThat(completed).isEqualTo(Math.min(initialStock, orders.size()));
        var payments = payments(orders);
        for (int i = 0; i < orders.size(); i++) {
            var order = orders.get(i);
            var expected = "COMPLETED".equals(statuses.get(i)) ? 1 : 0;
            assertThat(payments.stream().filter(p -> p.orderId().equals(order)))
                    .singleElement()
                    .extracting(Payments::count)
                    .isEqualTo(expected);
        }
        assertThat(decidedCount(orders)).isEqualTo(orders.size());
    }

    private static List<CheckoutDelivery> deliveries(List<CheckoutCommand> commands) {
        return IntStream.range(0, commands.size())
                .mapToObj(i -> new CheckoutDelivery(commands.get(i), 0, i))
                .toList();
    }

    private static List<String> outcomesByOrder(List<CheckoutResult> results) {
        return results.stream()
                .map(result -> result.orderId() + " " + result.outcome() + " " + result.rejectReason())
                .sorted()
                .toList();
    }
}
