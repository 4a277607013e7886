package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Records the worker cannot apply go to the dead-letter topic with a reason, and the commands after them go on. */
class PoisonCommandTests extends WorkerIntegrationTest {

    @Test
    void deadLettersEveryKindOfPoisonAndAppliesTheCommandAfterThem() {
        var product = createProduct(10, "3.00");
        var otherProduct = createProduct(10, "3.00");
        var orders = createOrders(product, 3, 1);
        var mismatchedOrder = orders.get(0);
        var wrongHeaderOrder = orders.get(1);
        var goodOrder = orders.get(2);
        var key = product.toString();
        var runId = UUID.randomUUID().toString();

        var garbage = new byte[] {0, (byte) 0xff, 0x13, 0x37, (byte) 0xc3, 0x28};
        var wellFormed = commandFor(goodOrder);
        var expectedReasons = new LinkedHashMap<String, String>();
        publishRaw(key, garbage, runId + "garbage", null);
        expectedReasons.put("garbage", "unreadable command");
        publishRaw(key, bytes("{\"commandId\": not json"), runId + "invalid-json", null);
        expectedReasons.put("invalid-json", "unreadable command");
        publishRaw(
                key,
                bytes(json(wellFormed).replace("\"quantity\":1", "\"quantity\":0")),
                runId + "zero-quantity",
                null);
        expectedReasons.put("zero-quantity", "quantity must be positive");
        publishRaw(
                key,
                bytes(json(wellFormed).replace("\"orderId\":\"" + goodOrder + "\",", "")),
                runId + "missing-order-id",
                null);
        expectedReasons.put("missing-order-id", "orderId");
        var mismatched = commandFor(mismatchedOrder);
        var otherProductCommand = new CheckoutCommand(
                mismatched.commandId(),
                mismatched.orderId(),
                otherProduct,
                mismatched.userId(),
                mismatched.quantity(),
                Instant.now());
        publishRaw(otherProduct.toString(), otherProductCommand, runId + "mismatched-product", null);
        expectedReasons.put("mismatched-product", "is not the product of order");
        var unknownOrder = CheckoutCommand.of(UUID.randomUUID(), product, "user-x", 1, Instant.now());
        publishRaw(
                key,
                unknownOrder,
                runId + "unknown-order",
                unknownOrder.commandId().toString());
        expectedReasons.put("unknown-order", "does not exist");
        var wrongHeader = commandFor(wrongHeaderOrder);
        publishRaw(
                key,
                wrongHeader,
                runId + "wrong-command-id-header",
                UUID.randomUUID().toString());
        expectedReasons.put("wrong-command-id-header", "is not the command's id");

        publish(List.of(wellFormed));
        awaitDecided(List.of(goodOrder));
        assertThat(statuses(List.of(goodOrder))).containsExactly("COMPLETED");

        try (var dlt = new TopicReader(broker, Topics.CHECKOUT_COMMANDS_DLT)) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dlt.byTestCase(runId).keySet().containsAll(expectedReasons.keySet()));
            var deadLetters = dlt.byTestCase(runId);
            expectedReasons.forEach((testCase, reason) -> {
                var record = deadLetters.get(testCase);
                assertThat(TopicReader.header(record, CheckoutKafkaConfiguration.DLT_REASON_HEADER))
                        .as("reason for %s", testCase)
                        .contains(reason);
                assertThat(TopicReader.header(record, "kafka_dlt-exception-fqcn"))
                        .as("exception header for %s", testCase)
                        .isNotBlank();
            });
            // an unreadable record goes on as it came, byte for byte
            assertThat(deadLetters.get("garbage").value()).isEqualTo(garbage);
        }

        // nothing of the poison reached the database
        assertThat(statuses(List.of(mismatchedOrder, wrongHeaderOrder))).containsOnly("CREATED");
        assertThat(stock(product)).isEqualTo(9);
        assertThat(stock(otherProduct)).isEqualTo(10);
        assertThat(decidedCount(List.of(mismatchedOrder, wrongHeaderOrder, unknownOrder.orderId())))
                .isZero();
    }

    private static String json(CheckoutCommand command) {
        return JSON.writeValueAsString(command);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
