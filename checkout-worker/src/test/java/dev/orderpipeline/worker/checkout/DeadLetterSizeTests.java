package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Poison records as large as the broker takes: their dead letters fit, with every header bounded, or are skipped and
 * counted when even that cannot fit; either way the next command of the partition is applied.
 */
class DeadLetterSizeTests extends WorkerIntegrationTest {

    /** The broker's and the producer's default largest record, about 1 MB. */
    private static final int BROKER_MAX_BYTES = 1_048_576;

    @Autowired
    MeterRegistry meters;

    @Test
    void deadLettersACommandWithAHugeCommandIdHeaderWithBoundedHeaders() {
        var product = createProduct(10, "2.00");
        var orders = createOrders(product, 2, 1);
        var testCase = "huge-header-" + UUID.randomUUID();
        var hugeHeader = "7".repeat(400 * 1024);

        publishRaw(product.toString(), commandFor(orders.get(0)), testCase, hugeHeader);
        publish(List.of(commandFor(orders.get(1))));

        awaitDecided(List.of(orders.get(1)));
        var deadLetter = awaitDeadLetter(testCase);
        var reason = TopicReader.header(deadLetter, CheckoutKafkaConfiguration.DLT_REASON_HEADER);
        assertThat(reason).startsWith("header " + Headers.COMMAND_ID + " 7777");
        assertThat(reason.getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(1024);
        assertThat(TopicReader.header(deadLetter, Headers.COMMAND_ID))
                .endsWith("... [truncated, " + hugeHeader.length() + " bytes]");
        for (Header header : deadLetter.headers()) {
            assertThat(header.value())
                    .as(header.key())
                    .hasSizeLessThanOrEqualTo(BoundedDeadLetterRecoverer.MAX_HEADER_BYTES);
        }
        assertThat(statuses(orders)).containsExactly("CREATED", "COMPLETED");
    }

    @Test
    void deadLettersACommandOfNearlyAMegabyte() {
        var product = createProduct(10, "2.00");
        var orders = createOrders(product, 2, 1);
        var testCase = "huge-value-" + UUID.randomUUID();
        var command = commandFor(orders.get(0));
        // a well-formed command whose user is not the order's, 0.9 MB of it
        var huge = new CheckoutCommand(
                command.commandId(),
                command.orderId(),
                command.productId(),
                "u".repeat(900 * 1024),
                command.quantity(),
                Instant.now());

        publishRaw(product.toString(), huge, testCase, command.commandId().toString());
        publish(List.of(commandFor(orders.get(1))));

        awaitDecided(List.of(orders.get(1)));
        var deadLetter = awaitDeadLetter(testCase);
        assertThat(TopicReader.header(deadLetter, CheckoutKafkaConfiguration.DLT_REASON_HEADER))
                .contains("is not the owner of order");
        assertThat(deadLetter.serializedValueSize()).isGreaterThan(900 * 1024);
        assertThat(statuses(orders)).containsExactly("CREATED", "COMPLETED");
    }

    @Test
    void skipsAndCountsADeadLetterThatCannotFitAndAppliesTheNextCommand() {
        var product = createProduct(10, "2.00");
        var orders = createOrders(product, 1, 1);
        var testCase = "too-large-" + UUID.randomUUID();
        var skipped = meters.counter("checkout.commands.dead-letter.skipped").count();
        // not JSON, and as large as the producer and the broker take with a little room for its key and one header:
        // its dead letter, the same value with the exception headers, is not
        var unreadable = new byte[BROKER_MAX_BYTES - 1_000];
        Arrays.fill(unreadable, (byte) 'x');

        publishRaw(product.toString(), unreadable, testCase, null);
        publish(List.of(commandFor(orders.get(0))));

        awaitDecided(orders);
        assertThat(statuses(orders)).containsExactly("COMPLETED");
        assertThat(meters.counter("checkout.commands.dead-letter.skipped").count())
                .isEqualTo(skipped + 1);
        try (var dlt = new TopicReader(broker, Topics.CHECKOUT_COMMANDS_DLT)) {
            assertThat(dlt.records()).noneMatch(record -> testCase.equals(TopicReader.header(record, "test-case")));
        }
    }

    private ConsumerRecord<String, byte[]> awaitDeadLetter(String testCase) {
        try (var dlt = new TopicReader(broker, Topics.CHECKOUT_COMMANDS_DLT)) {
            return await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> dlt.records().stream()
                                    .filter(record -> testCase.equals(TopicReader.header(record, "test-case")))
                                    .findFirst(),
                            found -> found.isPresent())
                    .orElseThrow();
        }
    }
}
