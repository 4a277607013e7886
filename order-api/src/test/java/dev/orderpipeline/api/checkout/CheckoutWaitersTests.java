package dev.orderpipeline.api.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CheckoutWaitersTests {

    private final CheckoutWaiters waiters = waiters(10);
    private final UUID orderId = UUID.randomUUID();

    private static CheckoutWaiters waiters(int maxWaiters) {
        var waiters = new CheckoutWaiters(
                new SimpleMeterRegistry(),
                new CheckoutProperties(
                        Duration.ofSeconds(30), Duration.ofSeconds(5), maxWaiters, Duration.ofSeconds(2)));
        waiters.start();
        return waiters;
    }

    private CheckoutWaiters.Waiter register(UUID order) {
        return waiters.tryRegister(order).orElseThrow();
    }

    private static Optional<CheckoutResult> await(CheckoutWaiters.Waiter waiter, Duration timeout) {
        return waiter.result(timeout).join();
    }

    @Test
    void wakesEveryRequestWaitingForTheOrder() {
        try (var first = register(orderId);
                var second = register(orderId)) {
            waiters.complete(completed(orderId));

            assertThat(await(first, Duration.ofSeconds(1)))
                    .hasValueSatisfying(result -> assertThat(result.orderId()).isEqualTo(orderId));
            assertThat(await(second, Duration.ofSeconds(1))).isPresent();
        }
        assertThat(waiters.waiting()).isZero();
    }

    @Test
    void ignoresResultsForOtherOrders() {
        try (var waiter = register(orderId)) {
            waiters.complete(completed(UUID.randomUUID()));

            assertThat(await(waiter, Duration.ofMillis(50))).isEmpty();
            assertThat(waiters.waiting()).isEqualTo(1);
        }
        assertThat(waiters.waiting()).isZero();
    }

    @Test
    void forgetsAWaiterThatGaveUp() {
        var waiter = register(orderId);
        waiter.close();
        waiter.close();

        waiters.complete(completed(orderId));

        assertThat(await(waiter, Duration.ofMillis(10))).isEmpty();
        assertThat(waiters.waiting()).isZero();
    }

    @Test
    void answersWithoutWaitingBeyondTheBound() {
        var bounded = waiters(2);
        var first = bounded.tryRegister(orderId);
        var second = bounded.tryRegister(UUID.randomUUID());

        assertThat(bounded.tryRegister(UUID.randomUUID())).isEmpty();

        first.orElseThrow().close();
        assertThat(bounded.tryRegister(UUID.randomUUID())).isPresent();
        second.orElseThrow().close();
    }

    @Test
    void endsEveryWaitWhenTheApplicationStops() {
        var waiter = register(orderId);
        var result = waiter.result(Duration.ofMinutes(5));

        waiters.stop();

        assertThat(result).isCompletedWithValue(Optional.empty());
        assertThat(waiters.tryRegister(UUID.randomUUID())).isEmpty();
        waiter.close();
        assertThat(waiters.waiting()).isZero();
    }

    private static CheckoutResult completed(UUID orderId) {
        return new CheckoutResult(
                CheckoutCommand.idFor(orderId),
                orderId,
                UUID.randomUUID(),
                CheckoutOutcome.COMPLETED,
                null,
                false,
                Instant.now());
    }
}
