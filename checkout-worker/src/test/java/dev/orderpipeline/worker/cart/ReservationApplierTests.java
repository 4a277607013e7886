package dev.orderpipeline.worker.cart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationCommand.Action;
import dev.orderpipeline.contract.ReservationReply.LineOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The reserver and the coordinator called directly, as their listeners call them, to pin down redeliveries. */
class ReservationApplierTests extends CartSagaTest {

    @Test
    void appliesTheSameReservationsAndReleasesTwiceChangingNothingTheSecondTime() {
        var kept = new Item(createProduct(10, "1.00"), 2);
        var scarce = new Item(createProduct(1, "1.00"), 3);
        var order = createCart(kept, scarce);
        var started = start(order);
        var reserves = deliveries(started.steps());

        var first = reserver.apply(reserves);
        var again = reserver.apply(reserves);

        assertThat(first.replies())
                .extracting(reply -> reply.reply().outcome(), Reservations.Reply::duplicate)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(LineOutcome.RESERVED, false),
                        org.assertj.core.groups.Tuple.tuple(LineOutcome.REFUSED, false));
        assertThat(again.replies())
                .extracting(reply -> reply.reply().outcome(), Reservations.Reply::duplicate)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(LineOutcome.RESERVED, true),
                        org.assertj.core.groups.Tuple.tuple(LineOutcome.REFUSED, true));
        assertThat(stock(kept.productId())).isEqualTo(8);
        assertThat(lineStatuses(order)).containsExactly("RESERVED", "REFUSED");

        // the refusal rejects the cart, and the coordinator sends the release of what was reserved; deciding again
        // (a repeated reply) finds the cart decided and sends nothing
        var decided = coordinator.decide(List.of(order));
        assertThat(decided.results()).hasSize(1);
        assertThat(decided.steps()).extracting(ReservationCommand::action).containsExactly(Action.RELEASE);
        assertThat(coordinator.decide(List.of(order)).steps()).isEmpty();
        var release = deliveries(decided.steps());

        var released = reserver.apply(release);
        var releasedAgain = reserver.apply(release);
        var reservedAgain = reserver.apply(reserves);

        assertThat(released.replies())
                .extracting(reply -> reply.reply().outcome())
                .containsExactly(LineOutcome.RELEASED);
        assertThat(releasedAgain.replies())
                .extracting(Reservations.Reply::duplicate)
                .containsExactly(true);
        assertThat(reservedAgain.replies())
                .extracting(Reservations.Reply::duplicate)
                .containsOnly(true);
        assertThat(stock(kept.productId())).isEqualTo(10);
        assertThat(stock(scarce.productId())).isEqualTo(1);
        assertThat(lineStatuses(order)).containsExactly("RELEASED", "REFUSED");
        assertThat(statuses(List.of(order))).containsExactly("REJECTED/INSUFFICIENT_STOCK");
        assertThat(invariants(kept.productId(), 10).violations()).isEmpty();
    }

    @Test
    void redeliveredCartCheckoutResendsOnlyTheReservationsStillPending() {
        var one = new Item(createProduct(5, "1.00"), 1);
        var two = new Item(createProduct(5, "1.00"), 1);
        var order = createCart(one, two);
        var command = new Delivery<>(cartCommandFor(order), 0, 0);
        var started = coordinator.start(List.of(command));
        postponeDeadline(order);
        reserver.apply(deliveries(started.steps().subList(0, 1)));

        var redelivered = coordinator.start(List.of(command));

        assertThat(redelivered.started()).isZero();
        assertThat(redelivered.steps()).extracting(ReservationCommand::lineNo).containsExactly(2);
        assertThat(jdbc.sql("SELECT count(*) FROM processed_command WHERE order_id = :id AND outcome IS NULL")
                        .param("id", order)
                        .query(Long.class)
                        .single())
                .as("the cart's claim and its one applied step, both without an outcome yet")
                .isEqualTo(2);
    }

    @RepeatedTest(3)
    void twoReserversRacingOverTheSameBatchApplyItOnce() throws Exception {
        var product = createProduct(12, "1.00");
        var other = createProduct(12, "1.00");
        var steps = new ArrayList<ReservationCommand>();
        var orders = new ArrayList<UUID>();
        for (int i = 0; i < 10; i++) {
            var order = createCart(new Item(product, 2), new Item(other, 1));
            orders.add(order);
            steps.addAll(start(order).steps());
        }
        var batch = deliveries(steps);

        var applied = race(batch, batch);

        var fresh = applied.stream().filter(reply -> !reply.duplicate()).toList();
        assertThat(fresh).hasSize(20);
        assertThat(applied.stream().filter(Reservations.Reply::duplicate)).hasSize(20);
        // 6 carts' worth of the first product, all 10 of the other: taken once, whatever the race
        assertThat(stock(product)).isZero();
        assertThat(stock(other)).isEqualTo(2);
        assertThat(fresh.stream().filter(reply -> reply.reply().outcome() == LineOutcome.RESERVED))
                .hasSize(16);
        assertThat(invariants(product, 12).carts().heldQuantity()).isEqualTo(12);
        assertThat(invariants(other, 12).carts().heldQuantity()).isEqualTo(10);
    }

    @RepeatedTest(3)
    void twoReserversOverBatchesOfOppositeLineOrdersNeitherDeadlockNorDrift() throws Exception {
        var a = createProduct(100, "1.00");
        var b = createProduct(100, "1.00");
        var forward = new ArrayList<ReservationCommand>();
        var backward = new ArrayList<ReservationCommand>();
        for (int i = 0; i < 20; i++) {
            forward.addAll(start(createCart(new Item(a, 1), new Item(b, 1))).steps());
            backward.addAll(start(createCart(new Item(b, 1), new Item(a, 1))).steps());
        }
        // each batch also holds half of the other one's steps, in its own order
        var first = new ArrayList<>(forward);
        first.addAll(backward.subList(0, 20));
        var second = new ArrayList<>(backward);
        second.addAll(forward.subList(20, 40));
        var deadlocksBefore = deadlocks();

        var applied = race(deliveries(first), deliveries(second));

        assertThat(applied.stream().filter(reply -> !reply.duplicate())).hasSize(80);
        assertThat(stock(a)).isEqualTo(60);
        assertThat(stock(b)).isEqualTo(60);
        assertThat(deadlocks() - deadlocksBefore).isZero();
    }

    @RepeatedTest(3)
    void twoCoordinatorsDecidingTheSameCartAtOnceCompleteItOnceWithOnePayment() throws Exception {
        var order = createCart(new Item(createProduct(5, "2.00"), 1), new Item(createProduct(5, "3.00"), 1));
        reserver.apply(deliveries(start(order).steps()));
        var barrier = new CyclicBarrier(2);

        List<SagaSteps> decided;
        try (var executor = Executors.newFixedThreadPool(2)) {
            var a = executor.submit(() -> {
                barrier.await(10, TimeUnit.SECONDS);
                return coordinator.decide(List.of(order));
            });
            var b = executor.submit(() -> {
                barrier.await(10, TimeUnit.SECONDS);
                return coordinator.decide(List.of(order));
            });
            decided = List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
        }

        assertThat(decided.stream().mapToInt(steps -> steps.decisions().size()).sum())
                .isEqualTo(1);
        assertThat(statuses(List.of(order))).containsExactly("COMPLETED");
        assertThat(lineStatuses(order)).containsExactly("SOLD", "SOLD");
        assertThat(payments(List.of(order)).getFirst().count()).isEqualTo(1);
        assertThat(payments(List.of(order)).getFirst().total()).isEqualByComparingTo("5.00");
    }

    private SagaSteps start(UUID order) {
        var started = coordinator.start(List.of(new Delivery<>(cartCommandFor(order), 0, 0)));
        postponeDeadline(order);
        return started;
    }

    private static List<Delivery<ReservationCommand>> deliveries(List<ReservationCommand> steps) {
        var deliveries = new ArrayList<Delivery<ReservationCommand>>();
        for (int i = 0; i < steps.size(); i++) {
            deliveries.add(new Delivery<>(steps.get(i), 0, i));
        }
        return deliveries;
    }

    /** Runs two reservers released at the same moment and returns all their replies. */
    private List<Reservations.Reply> race(
            List<Delivery<ReservationCommand>> first, List<Delivery<ReservationCommand>> second) throws Exception {
        var barrier = new CyclicBarrier(2);
        try (var executor = Executors.newFixedThreadPool(2)) {
            var a = executor.submit(() -> {
                barrier.await(10, TimeUnit.SECONDS);
                return reserver.apply(first);
            });
            var b = executor.submit(() -> {
                barrier.await(10, TimeUnit.SECONDS);
                return reserver.apply(second);
            });
            var replies = new ArrayList<Reservations.Reply>();
            for (var applied : List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS))) {
                assertThat(applied.invalid()).isEmpty();
                replies.addAll(applied.replies());
            }
            return replies;
        }
    }
}
