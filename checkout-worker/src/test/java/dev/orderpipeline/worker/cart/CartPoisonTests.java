package dev.orderpipeline.worker.cart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.ReservationCommand.Action;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.TopicReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Saga records the worker cannot apply go to their dead-letter topics with a reason, and change nothing. */
class CartPoisonTests extends CartSagaTest {

    private static final String DLT_REASON = "dlt-reason";

    @Test
    void deadLettersPoisonReservationStepsWithTheirReasonAndChangesNothing() {
        var product = createProduct(10, "1.00");
        var item = new Item(product, 2);
        var order = createCart(item, new Item(createProduct(10, "1.00"), 1));
        var key = product.toString();
        var runId = UUID.randomUUID().toString();
        var expected = new LinkedHashMap<String, String>();

        publishRaw(Topics.CHECKOUT_RESERVATIONS, key, bytes("{\"commandId\": not json"), runId + "garbage");
        expected.put("garbage", "unreadable command");
        var good = step(Action.RESERVE, order, 1, item);
        publishRaw(
                Topics.CHECKOUT_RESERVATIONS,
                key,
                bytes(JSON.writeValueAsString(good).replace("\"quantity\":2", "\"quantity\":0")),
                runId + "zero-quantity");
        expected.put("zero-quantity", "quantity must be positive");
        publishRaw(
                Topics.CHECKOUT_RESERVATIONS,
                key,
                step(Action.RESERVE, UUID.randomUUID(), 1, item),
                runId + "unknown-line");
        expected.put("unknown-line", "does not exist");
        publishRaw(
                Topics.CHECKOUT_RESERVATIONS,
                key,
                step(Action.RESERVE, order, 1, new Item(product, 7)),
                runId + "wrong-quantity");
        expected.put("wrong-quantity", "is not line 1");
        publishRaw(Topics.CHECKOUT_RESERVATIONS, key, step(Action.RELEASE, order, 1, item), runId + "early-release");
        expected.put("early-release", "is PENDING, not released");

        try (var dlt = new TopicReader(broker, Topics.CHECKOUT_RESERVATIONS_DLT)) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dlt.byTestCase(runId).keySet().containsAll(expected.keySet()));
            assertReasons(dlt.byTestCase(runId), expected);
        }
        assertThat(stock(product)).isEqualTo(10);
        assertThat(lineStatuses(order)).containsExactly("PENDING", "PENDING");
        assertThat(claims(order)).isZero();
    }

    @Test
    void deadLettersPoisonCartCheckoutsWithTheirReasonAndChangesNothing() {
        var product = createProduct(10, "1.00");
        var otherProduct = createProduct(10, "1.00");
        var cart = createCart(new Item(product, 1), new Item(otherProduct, 1));
        var single = createOrders(product, 1, 1).getFirst();
        var runId = UUID.randomUUID().toString();
        var expected = new LinkedHashMap<String, String>();
        var command = cartCommandFor(cart);

        publishRaw(Topics.CHECKOUT_CARTS, cart.toString(), new byte[] {0, (byte) 0xff, 0x13}, runId + "garbage");
        expected.put("garbage", "unreadable command");
        var oneLine = JSON.writeValueAsString(command).replaceAll(",\\{\"lineNo\":2,[^}]*}", "");
        publishRaw(Topics.CHECKOUT_CARTS, cart.toString(), bytes(oneLine), runId + "one-line");
        expected.put("one-line", "at least two lines");
        var otherQuantities = new CartCheckoutCommand(
                command.commandId(),
                cart,
                command.userId(),
                List.of(new CartLine(1, product, 1), new CartLine(2, otherProduct, 5)),
                Instant.now());
        publishRaw(Topics.CHECKOUT_CARTS, cart.toString(), otherQuantities, runId + "wrong-lines");
        expected.put("wrong-lines", "are not the lines");
        var unknown = CartCheckoutCommand.of(UUID.randomUUID(), "user-x", command.lines(), Instant.now());
        publishRaw(Topics.CHECKOUT_CARTS, unknown.key(), unknown, runId + "unknown-order");
        expected.put("unknown-order", "does not exist");
        var notACart = CartCheckoutCommand.of(single, "user-" + single, command.lines(), Instant.now());
        publishRaw(Topics.CHECKOUT_CARTS, notACart.key(), notACart, runId + "single-product-order");
        expected.put("single-product-order", "is an order of one product, not a cart");

        try (var dlt = new TopicReader(broker, Topics.CHECKOUT_CARTS_DLT)) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dlt.byTestCase(runId).keySet().containsAll(expected.keySet()));
            assertReasons(dlt.byTestCase(runId), expected);
        }
        assertThat(statuses(List.of(cart, single))).containsOnly("CREATED");
        assertThat(lineStatuses(cart)).containsOnly("PENDING");
        assertThat(jdbc.sql("SELECT count(*) FROM orders WHERE id IN (:a, :b) AND checkout_deadline IS NOT NULL")
                        .param("a", cart)
                        .param("b", single)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(claims(cart) + claims(single)).isZero();
    }

    private long claims(UUID order) {
        return jdbc.sql("SELECT count(*) FROM processed_command WHERE order_id = :id")
                .param("id", order)
                .query(Long.class)
                .single();
    }

    private static void assertReasons(
            Map<String, ConsumerRecord<String, byte[]>> letters, Map<String, String> expected) {
        expected.forEach((testCase, reason) -> assertThat(TopicReader.header(letters.get(testCase), DLT_REASON))
                .as("reason for %s", testCase)
                .contains(reason));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
