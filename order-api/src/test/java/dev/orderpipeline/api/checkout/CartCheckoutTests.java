package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.test.utils.ContainerTestUtils;

/**
 * The checkout of a cart: one {@link CartCheckoutCommand} keyed by the order on {@value Topics#CHECKOUT_CARTS}, read
 * back from the broker; and a {@code lines} order of one product, which takes the single-product path.
 */
class CartCheckoutTests extends ApiTestSupport {

    @Autowired
    private KafkaListenerEndpointRegistry listeners;

    @BeforeEach
    void resultsListenerIsAssigned() {
        // the listener starts at the end of the topic: a result published before it is assigned would be missed
        ContainerTestUtils.waitForAssignment(
                Objects.requireNonNull(listeners.getListenerContainer(CheckoutResultListener.LISTENER_ID)), 3);
    }

    @Test
    void publishesOneCartCheckoutCommandKeyedByTheOrder() {
        var alice = newUser();
        var first = createProduct(5, "2.00");
        var second = createProduct(5, "3.00");
        var orderId = placeCart(alice, first, 2, second, 1);

        var response = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));

        assertThat(response.status()).as(response::toString).isEqualTo(202);
        assertThat(response.header("Location")).contains("/api/orders/" + orderId);
        assertThat(response.json().get("commandId").asString())
                .isEqualTo(CheckoutCommand.idFor(orderId).toString());
        assertThat(response.json().get("status").asString()).isEqualTo("CREATED");
        var record = awaitRecords(Topics.CHECKOUT_CARTS, orderId, 1).getFirst();
        assertThat(record.key()).isEqualTo(orderId.toString());
        assertThat(CommandTap.commandId(record))
                .isEqualTo(CheckoutCommand.idFor(orderId).toString());
        assertThat(CommandTap.header(record, Headers.COMMAND_TYPE)).isEqualTo(CartCheckoutCommand.TYPE);
        assertThat(CommandTap.header(record, Headers.ORDER_ID)).isEqualTo(orderId.toString());
        assertThat(record.headers().lastHeader("__TypeId__")).isNull();
        var command = CommandTap.JSON.readValue(record.value(), CartCheckoutCommand.class);
        assertThat(command)
                .isEqualTo(new CartCheckoutCommand(
                        CheckoutCommand.idFor(orderId),
                        orderId,
                        alice,
                        List.of(new CartLine(1, first, 2), new CartLine(2, second, 1)),
                        command.requestedAt()));
        // nothing for the single-product worker, and nothing written by the API
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            assertThat(tap.pollFor(orderId)).isEmpty();
        }
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertThat(lineStatuses(orderId)).containsExactly("PENDING", "PENDING");
    }

    @Test
    void checksOutLinesOfOneProductAsASingleProductOrder() {
        var alice = newUser();
        var product = createProduct(5, "2.00");
        var response = api.post(
                "/api/orders",
                "{\"lines\": [{\"productId\": \"%s\", \"quantity\": 2}]}".formatted(product),
                AUTHORIZATION,
                bearer(alice));
        var orderId = UUID.fromString(response.json().get("id").asString());

        var checkout = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));

        assertThat(checkout.status()).as(checkout::toString).isEqualTo(202);
        var record = awaitRecords(Topics.CHECKOUT_COMMANDS, orderId, 1).getFirst();
        assertThat(record.key()).isEqualTo(product.toString());
        assertThat(CommandTap.header(record, Headers.COMMAND_TYPE)).isEqualTo(CheckoutCommand.TYPE);
        var command = CommandTap.JSON.readValue(record.value(), CheckoutCommand.class);
        assertThat(command)
                .isEqualTo(new CheckoutCommand(
                        CheckoutCommand.idFor(orderId), orderId, product, alice, 2, command.requestedAt()));
        try (var tap = new CommandTap(broker.getBrokersAsString(), Topics.CHECKOUT_CARTS)) {
            assertThat(tap.pollFor(orderId)).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"COMPLETED", "REJECTED"})
    void refusesToCheckOutACartThatIsNotCreated(String status) {
        var alice = newUser();
        var orderId = placeCart(alice, createProduct(5, "1.00"), 1, createProduct(5, "1.00"), 1);
        decideInDatabase(orderId, status);

        var response = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));

        assertThat(response.status()).as(response::toString).isEqualTo(409);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:order-not-checkoutable");
        assertThat(problem.get("orderStatus").asString()).isEqualTo(status);
        try (var tap = new CommandTap(broker.getBrokersAsString(), Topics.CHECKOUT_CARTS)) {
            assertThat(tap.pollFor(orderId)).isEmpty();
        }
    }

    @Test
    void answersAWaitingCartCheckoutWithItsLinesAsTheWorkerDecidedThem() {
        var alice = newUser();
        var orderId = placeCart(alice, createProduct(5, "1.00"), 1, createProduct(5, "1.00"), 3);
        var worker = respond(orderId, CheckoutOutcome.REJECTED);

        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=3");

        worker.join();
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.header("Preference-Applied")).contains("wait=3");
        var order = response.json();
        assertThat(order.get("status").asString()).isEqualTo("REJECTED");
        assertThat(order.get("rejectReason").asString()).isEqualTo("INSUFFICIENT_STOCK");
        assertThat(order.get("lines")
                        .valueStream()
                        .map(line -> line.get("status").asString()))
                .containsExactly("CANCELLED", "REFUSED");
        assertThat(order.get("lines").get(1).get("rejectReason").asString()).isEqualTo("INSUFFICIENT_STOCK");
    }

    @Test
    void answersAWaitingCartCheckoutThatCompletedWithEveryLineSold() {
        var alice = newUser();
        var orderId = placeCart(alice, createProduct(5, "1.00"), 1, createProduct(5, "1.00"), 3);
        var worker = respond(orderId, CheckoutOutcome.COMPLETED);

        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=3");

        worker.join();
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.json().get("status").asString()).isEqualTo("COMPLETED");
        assertThat(response.json()
                        .get("lines")
                        .valueStream()
                        .map(line -> line.get("status").asString()))
                .containsExactly("SOLD", "SOLD");
    }

    /**
     * Plays the cart's coordinator: takes the command from the broker, decides the order and its lines in the
     * database, then publishes the result without a product, as the worker does for a cart.
     */
    private CompletableFuture<Void> respond(UUID orderId, CheckoutOutcome outcome) {
        return CompletableFuture.runAsync(() -> {
            var command = CommandTap.JSON.readValue(
                    awaitRecords(Topics.CHECKOUT_CARTS, orderId, 1).getFirst().value(), CartCheckoutCommand.class);
            var completed = outcome == CheckoutOutcome.COMPLETED;
            jdbc.sql("""
                            UPDATE order_line
                               SET status = CASE WHEN :completed THEN 'SOLD'
                                                 WHEN line_no = 1 THEN 'CANCELLED' ELSE 'REFUSED' END,
                                   reject_reason = CASE WHEN NOT :completed AND line_no > 1
                                                        THEN 'INSUFFICIENT_STOCK' END
                             WHERE order_id = :id
                            """).param("completed", completed).param("id", orderId).update();
            var reason = completed ? null : RejectReason.INSUFFICIENT_STOCK;
            jdbc.sql("UPDATE orders SET status = :status, reject_reason = :reason WHERE id = :id")
                    .param("status", outcome.name())
                    .param("reason", reason == null ? null : reason.name())
                    .param("id", orderId)
                    .update();
            var result = new CheckoutResult(command.commandId(), orderId, null, outcome, reason, false, Instant.now());
            try (var producer = new KafkaProducer<>(
                    Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>(
                                Topics.CHECKOUT_RESULTS, result.key(), CommandTap.JSON.writeValueAsString(result)))
                        .get(10, TimeUnit.SECONDS);
            } catch (Exception ex) {
                throw new IllegalStateException("the result for order " + orderId + " was not published", ex);
            }
        });
    }

    private UUID placeCart(String userId, UUID first, int firstQuantity, UUID second, int secondQuantity) {
        var response = api.post(
                "/api/orders",
                """
                {"lines": [{"productId": "%s", "quantity": %d}, {"productId": "%s", "quantity": %d}]}
                """.formatted(first, firstQuantity, second, secondQuantity),
                AUTHORIZATION,
                bearer(userId));
        assertThat(response.status()).as(response::toString).isEqualTo(201);
        return UUID.fromString(response.json().get("id").asString());
    }

    private List<String> lineStatuses(UUID orderId) {
        return jdbc.sql("SELECT status FROM order_line WHERE order_id = :id ORDER BY line_no")
                .param("id", orderId)
                .query(String.class)
                .list();
    }

    private List<ConsumerRecord<String, String>> awaitRecords(String topic, UUID orderId, int count) {
        var records = new ArrayList<ConsumerRecord<String, String>>();
        try (var tap = new CommandTap(broker.getBrokersAsString(), topic)) {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                records.addAll(tap.pollFor(orderId));
                assertThat(records).hasSize(count);
            });
        }
        return records;
    }
}
