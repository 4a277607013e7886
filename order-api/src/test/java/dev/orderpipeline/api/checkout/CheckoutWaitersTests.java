package dev.orderpipeline.api.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CheckoutWaitersTests {

    private final CheckoutWaiters waiters = new CheckoutWaiters(new SimpleMeterRegistry());
    private final UUID orderId = UUID.randomUUID();

    @Test
    void wakesEveryRequestWaitingForTheOrder() {
        try (var first = waiters.register(orderId);
                var second = waiters.register(orderId)) {
            waiters.complete(completed(orderId));

            assertThat(first.await(Duration.ofSeconds(1)))
                    .hasValueSatisfying(result -> assertThat(result.orderId()).isEqualTo(orderId));
            assertThat(second.await(Duration.ofSeconds(1))).isPresent();
        }
        assertThat(waiters.waiting()).isZero();
    }

    @Test
    void ignoresResultsForOtherOrders() {
        try (var waiter = waiters.register(orderId)) {
            waiters.complete(completed(UUID.randomUUID()));

            assertThat(waiter.await(Duration.ofMillis(50))).isEmpty();
            assertThat(waiters.waiting()).isEqualTo(1);
        }
        assertThat(waiters.waiting()).isZero();
    }

    @Test
    void forgetsAWaiterThatGaveUp() {
        var waiter = waiters.register(orderId);
        waiter.close();
        waiter.close();

        waiters.complete(completed(orderId));

        assertThat(waiter.await(Duration.ofMillis(10))).isEmpty();
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
