package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.Topics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Plays the worker on the real broker and database: decides an order in the database as the worker commits it, then
 * publishes its result on the results topic, which the API's results listener reads.
 */
final class FakeWorker {

    private final String bootstrapServers;
    private final JdbcClient jdbc;

    FakeWorker(String bootstrapServers, JdbcClient jdbc) {
        this.bootstrapServers = bootstrapServers;
        this.jdbc = jdbc;
    }

    /**
     * For one order: waits for its command, decides the order in the database and, if asked, publishes the result;
     * {@code garbage} goes on the results topic under the order's key first.
     */
    CompletableFuture<Void> respond(
            UUID orderId,
            CheckoutOutcome outcome,
            @Nullable RejectReason reason,
            boolean publishResult,
            List<String> garbage) {
        return CompletableFuture.runAsync(() -> {
            try (var tap = new CommandTap(bootstrapServers);
                    var producer = producer()) {
                var command = CommandTap.JSON.readValue(tap.awaitFor(orderId).value(), CheckoutCommand.class);
                decideInDatabase(orderId, outcome, reason);
                for (var value : garbage) {
                    producer.send(new ProducerRecord<>(Topics.CHECKOUT_RESULTS, orderId.toString(), value))
                            .get(10, TimeUnit.SECONDS);
                }
                if (publishResult) {
                    publish(producer, command.commandId(), orderId, command.productId(), outcome, reason);
                }
            } catch (Exception ex) {
                throw new IllegalStateException("responder for order " + orderId + " failed", ex);
            }
        });
    }

    /** Decides the order and publishes its result now, as if its command had just been applied. */
    void decide(UUID orderId, CheckoutOutcome outcome, @Nullable RejectReason reason) throws Exception {
        decideInDatabase(orderId, outcome, reason);
        try (var producer = producer()) {
            publish(producer, UUID.randomUUID(), orderId, null, outcome, reason);
        }
    }

    KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                new StringSerializer(),
                new StringSerializer());
    }

    private void decideInDatabase(UUID orderId, CheckoutOutcome outcome, @Nullable RejectReason reason) {
        jdbc.sql("""
                        UPDATE orders
                           SET status = :status, reject_reason = :reason, updated_at = now()
                         WHERE id = :id
                           AND status = 'CREATED'
                        """)
                .param("status", outcome.name())
                .param("reason", reason == null ? null : reason.name())
                .param("id", orderId)
                .update();
    }

    private static void publish(
            KafkaProducer<String, String> producer,
            UUID commandId,
            UUID orderId,
            @Nullable UUID productId,
            CheckoutOutcome outcome,
            @Nullable RejectReason reason)
            throws Exception {
        var result = new CheckoutResult(commandId, orderId, productId, outcome, reason, false, Instant.now());
        producer.send(new ProducerRecord<>(
                        Topics.CHECKOUT_RESULTS, result.key(), CommandTap.JSON.writeValueAsString(result)))
                .get(10, TimeUnit.SECONDS);
    }
}
