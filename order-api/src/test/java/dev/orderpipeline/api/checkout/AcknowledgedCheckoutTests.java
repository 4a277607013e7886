package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiTestSupport;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Once the broker has a checkout's command, no answer may tell the client that the checkout was not taken: it would
 * order again and buy twice. A wait whose last read of the order is slow answers 202 (and a send that the producer
 * gave up on after handing it over answers a problem of its own: {@link CheckoutOutcomeUnknownTests}).
 */
class AcknowledgedCheckoutTests extends ApiTestSupport {

    @Autowired
    private DataSource dataSource;

    @Test
    void answersAcceptedWhenTheReadAfterTheWaitIsSlowAndTheOrderIsDecidedAfterwards() throws Exception {
        var alice = newUser();
        var orderId = createOrderId(alice);
        try (var tap = new CommandTap(broker.getBrokersAsString());
                var locker = dataSource.getConnection()) {
            var answer = CompletableFuture.supplyAsync(() -> api.post(
                    "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=1"));
            var command = tap.awaitFor(orderId);
            // the broker has the command: now the order's table is locked until the answer is in
            locker.setAutoCommit(false);
            try (var lock = locker.createStatement()) {
                lock.execute("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
            }
            var response = answer.get(20, TimeUnit.SECONDS);

            assertThat(response.status()).as(response::toString).isEqualTo(202);
            assertThat(response.header("Location")).contains("/api/orders/" + orderId);
            assertThat(response.header("Preference-Applied")).contains("wait=1");
            assertThat(response.json().get("status").asString()).isEqualTo("CREATED");
            // the answer did not wait for the order's read: that read is still stuck behind the lock
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() ->
                            assertThat(sessionsWaitingForALock("FROM orders o")).isPositive());
            locker.rollback();

            // the worker decides the order it was handed
            jdbc.sql("UPDATE orders SET status = 'COMPLETED', updated_at = now() WHERE id = :id AND status = 'CREATED'")
                    .param(
                            "id",
                            UUID.fromString(
                                    CommandTap.value(command).get("orderId").asString()))
                    .update();
        }
        var order = api.get("/api/orders/" + orderId, AUTHORIZATION, bearer(alice));
        assertThat(order.json().get("status").asString()).isEqualTo("COMPLETED");
    }
}
