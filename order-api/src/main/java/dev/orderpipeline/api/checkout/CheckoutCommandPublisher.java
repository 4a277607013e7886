package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Publishes checkout commands, a single-product order's and a cart's, and returns only once the broker has
 * acknowledged them (the producer runs with {@code acks=all} and idempotence). A failure says what it means for the
 * order ({@link PublishFailure}): nothing was sent and the order is unchanged ({@link BrokerUnavailableException}),
 * the broker may have appended the command ({@link CheckoutOutcomeUnknownException}: no acknowledgement within {@code
 * delivery.timeout.ms}, or any other failure once the producer had it), or the record itself is at fault, a bug that
 * propagates.
 */
@Component
final class CheckoutCommandPublisher {

    private static final Logger log = LoggerFactory.getLogger(CheckoutCommandPublisher.class);

    private final KafkaTemplate<String, Object> kafka;
    private final CheckoutProperties properties;

    CheckoutCommandPublisher(KafkaTemplate<String, Object> kafka, CheckoutProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
    }

    /** To {@value Topics#CHECKOUT_COMMANDS}, keyed by the product, as it always was. */
    void publish(CheckoutCommand command) {
        var record = new ProducerRecord<String, Object>(Topics.CHECKOUT_COMMANDS, command.key(), command);
        header(record, Headers.COMMAND_ID, command.commandId().toString());
        header(record, Headers.COMMAND_TYPE, CheckoutCommand.TYPE);
        send(record, command.commandId(), command.orderId());
    }

    /**
     * To {@value Topics#CHECKOUT_CARTS}, keyed by the order (one coordinator owns each cart's saga), with the order
     * in a header too, as on every record of the saga.
     */
    void publish(CartCheckoutCommand command) {
        var record = new ProducerRecord<String, Object>(Topics.CHECKOUT_CARTS, command.key(), command);
        header(record, Headers.COMMAND_ID, command.commandId().toString());
        header(record, Headers.COMMAND_TYPE, CartCheckoutCommand.TYPE);
        header(record, Headers.ORDER_ID, command.orderId().toString());
        send(record, command.commandId(), command.orderId());
    }

    private static void header(ProducerRecord<String, Object> record, String name, String value) {
        record.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private void send(ProducerRecord<String, Object> record, UUID commandId, UUID orderId) {
        CompletableFuture<SendResult<String, Object>> sending;
        try {
            // fails here, at once, when the producer cannot even get the topic's metadata within max.block.ms: the
            // record was never handed over
            sending = kafka.send(record);
        } catch (RuntimeException ex) {
            throw failed(PublishFailure.ofSend(ex), commandId, orderId, ex);
        }
        try {
            // No timeout of our own: the producer bounds the wait itself (the future completes, acknowledged or
            // failed, within delivery.timeout.ms), and a timed wait on a virtual thread schedules and cancels a timer
            // per checkout: 8 % of the API's CPU in a profile
            var sent = sending.get();
            log.debug(
                    "Published checkout command {} for order {} to partition {} of {}",
                    commandId,
                    orderId,
                    sent.getRecordMetadata().partition(),
                    record.topic());
        } catch (ExecutionException ex) {
            throw failed(
                    PublishFailure.ofAcknowledgement(ex.getCause() == null ? ex : ex.getCause()),
                    commandId,
                    orderId,
                    ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw outcomeUnknown(commandId, orderId, ex);
        }
    }

    private RuntimeException failed(PublishFailure failure, UUID commandId, UUID orderId, Exception ex) {
        return switch (failure) {
            case NOT_SENT -> unavailable(commandId, orderId, ex);
            case OUTCOME_UNKNOWN -> outcomeUnknown(commandId, orderId, ex);
            case REFUSED ->
                ex instanceof RuntimeException runtime
                        ? runtime
                        : new IllegalStateException("publishing checkout command " + commandId + " failed", ex);
        };
    }

    private BrokerUnavailableException unavailable(UUID commandId, UUID orderId, Exception ex) {
        // One line per checkout, its stack trace at DEBUG: while the broker is away every checkout fails alike, and a
        // stack trace each made the log the API's busiest writer.
        log.warn("Checkout command {} for order {} was not sent: {}", commandId, orderId, rootCause(ex));
        log.debug("Checkout command {} was not sent", commandId, ex);
        return new BrokerUnavailableException(orderId, properties.retryAfter(), ex);
    }

    private CheckoutOutcomeUnknownException outcomeUnknown(UUID commandId, UUID orderId, Exception ex) {
        // The record may still reach the broker after we gave up; that is harmless: a retry publishes the same
        // command id and the worker applies it once. The client is told so, not that nothing happened.
        log.warn("Checkout command {} for order {} was not acknowledged: {}", commandId, orderId, rootCause(ex));
        log.debug("Checkout command {} was not acknowledged", commandId, ex);
        return new CheckoutOutcomeUnknownException(orderId, properties.retryAfter(), ex);
    }

    private static String rootCause(Throwable ex) {
        var cause = ex;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.toString();
    }
}
