package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.test.utils.ContainerTestUtils;

/**
 * {@code Prefer: wait}: a test-side responder plays the worker (it consumes the command, decides the order in the
 * database and publishes the result), and the API answers with the decision as soon as the result arrives.
 */
class PreferWaitCheckoutTests extends ApiTestSupport {

    @Autowired
    private KafkaListenerEndpointRegistry listeners;

    @Autowired
    private CheckoutWaiters waiters;

    @BeforeEach
    void resultsListenerIsAssigned() {
        // the listener starts at the end of the topic: a result published before it is assigned would be missed
        ContainerTestUtils.waitForAssignment(
                Objects.requireNonNull(listeners.getListenerContainer(CheckoutResultListener.LISTENER_ID)), 3);
    }

    @AfterEach
    void nobodyIsLeftWaiting() {
        // the wait is closed when the request completes, which can be just after the client has the whole answer
        await().atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(waiters.waiting()).isZero());
    }

    @Test
    void answersWithTheCompletedOrderAsSoonAsTheResultArrives() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        var responder = respond(orderId, CheckoutOutcome.COMPLETED, null, true);

        var started = System.nanoTime();
        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=3");
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        responder.join();
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.header("Preference-Applied")).contains("wait=3");
        var order = response.json();
        assertThat(order.get("id").asString()).isEqualTo(orderId.toString());
        assertThat(order.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(order.get("userId").asString()).isEqualTo(alice);
        assertThat(elapsed).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void answersWithTheRejectedOrderAndItsReason() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        var responder = respond(orderId, CheckoutOutcome.REJECTED, RejectReason.INSUFFICIENT_STOCK, true);

        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=3");

        responder.join();
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.json().get("status").asString()).isEqualTo("REJECTED");
        assertThat(response.json().get("rejectReason").asString()).isEqualTo("INSUFFICIENT_STOCK");
    }

    @Test
    void keepsListeningAfterGarbageOnTheResultsTopic() throws Exception {
        try (var producer = producer()) {
            producer.send(new ProducerRecord<>(Topics.CHECKOUT_RESULTS, "garbage", "not json at all"))
                    .get(10, TimeUnit.SECONDS);
            // valid JSON that breaks the contract: a rejection without a reason
            producer.send(new ProducerRecord<>(Topics.CHECKOUT_RESULTS, "invalid", """
                            {"commandId": "%s", "orderId": "%s", "productId": "%s", "outcome": "REJECTED",
                             "rejectReason": null, "duplicate": false, "decidedAt": "2025-01-01T00:00:00Z"}
                            """.formatted(
                                    UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID())))
                    .get(10, TimeUnit.SECONDS);
        }
        var alice = newUser();
        var orderId = createOrderId(alice);
        // read only because a request waits for this order: garbage and a broken result under its key come first
        var responder = respond(
                orderId,
                CheckoutOutcome.COMPLETED,
                null,
                true,
                List.of("not json at all", "{\"orderId\": \"%s\", \"outcome\": \"REJECTED\"}".formatted(orderId)));

        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=3");

        responder.join();
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.json().get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void answersAcceptedWhenNoDecisionComesWithinTheWait() {
        var alice = newUser();
        var orderId = createOrderId(alice);

        var started = System.nanoTime();
        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=1");
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(response.status()).as(response::toString).isEqualTo(202);
        assertThat(response.header("Preference-Applied")).contains("wait=1");
        assertThat(response.header("Location")).contains("/api/orders/" + orderId);
        assertThat(response.json().get("status").asString()).isEqualTo("CREATED");
        assertThat(elapsed).isBetween(Duration.ofMillis(950), Duration.ofSeconds(3));
    }

    @Test
    void answersWithTheFinalOrderWhenItWasDecidedButTheResultNeverCame() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        // the worker committed, then died before publishing its result
        var responder = respond(orderId, CheckoutOutcome.COMPLETED, null, false);

        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=1");

        responder.join();
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.header("Preference-Applied")).contains("wait=1");
        assertThat(response.json().get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void capsTheWaitAtTheConfiguredMaximum() {
        var alice = newUser();
        var orderId = createOrderId(alice);

        var started = System.nanoTime();
        var response = api.post(
                "/api/orders/" + orderId + "/checkout",
                null,
                AUTHORIZATION,
                bearer(alice),
                "Prefer",
                "respond-async, wait=600");
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(response.status()).isEqualTo(202);
        // the test context caps waits at 3 s (orderpipeline.checkout.max-wait)
        assertThat(response.header("Preference-Applied")).contains("wait=3");
        assertThat(elapsed).isBetween(Duration.ofMillis(2950), Duration.ofSeconds(6));
    }

    /**
     * Plays the worker for one order: waits for its command, decides the order in the database and, if asked,
     * publishes the result.
     */
    private CompletableFuture<Void> respond(
            UUID orderId, CheckoutOutcome outcome, @Nullable RejectReason reason, boolean publishResult) {
        return respond(orderId, outcome, reason, publishResult, List.of());
    }

    /** Plays the worker for one order; {@code garbage} goes on the results topic under the order's key first. */
    private CompletableFuture<Void> respond(
            UUID orderId,
            CheckoutOutcome outcome,
            @Nullable RejectReason reason,
            boolean publishResult,
            List<String> garbage) {
        return new FakeWorker(broker.getBrokersAsString(), jdbc)
                .respond(orderId, outcome, reason, publishResult, garbage);
    }

    private KafkaProducer<String, String> producer() {
        return new FakeWorker(broker.getBrokersAsString(), jdbc).producer();
    }
}
