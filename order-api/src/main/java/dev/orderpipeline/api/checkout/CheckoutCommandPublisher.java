package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Publishes checkout commands and returns only once the broker has acknowledged them (the producer runs with
 * {@code acks=all} and idempotence). Failures that mean "the broker is not there right now" become {@link
 * BrokerUnavailableException}; anything else is a bug and propagates.
 */
@Component
final class CheckoutCommandPublisher {

    private static final Logger log = LoggerFactory.getLogger(CheckoutCommandPublisher.class);

    private final KafkaTemplate<String, CheckoutCommand> kafka;
    private final CheckoutProperties properties;

    CheckoutCommandPublisher(KafkaTemplate<String, CheckoutCommand> kafka, CheckoutProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
    }

    void publish(CheckoutCommand command) {
        var record = new ProducerRecord<>(Topics.CHECKOUT_COMMANDS, command.key(), command);
        record.headers().add(Headers.COMMAND_ID, command.commandId().toString().getBytes(StandardCharsets.UTF_8));
        record.headers().add(Headers.COMMAND_TYPE, CheckoutCommand.TYPE.getBytes(StandardCharsets.UTF_8));
        try {
            var sent = kafka.send(record).get(properties.publishTimeout().toMillis(), TimeUnit.MILLISECONDS);
            log.debug(
                    "Published checkout command {} for order {} to partition {}",
                    command.commandId(),
                    command.orderId(),
                    sent.getRecordMetadata().partition());
        } catch (ExecutionException ex) {
            if (!brokerTrouble(ex.getCause())) {
                throw new IllegalStateException("publishing checkout command " + command.commandId() + " failed", ex);
            }
            throw unavailable(command, ex);
        } catch (RuntimeException ex) {
            // send() itself fails when the producer cannot even get the topic's metadata within max.block.ms
            if (!brokerTrouble(ex)) {
                throw ex;
            }
            throw unavailable(command, ex);
        } catch (TimeoutException ex) {
            throw unavailable(command, ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw unavailable(command, ex);
        }
    }

    private BrokerUnavailableException unavailable(CheckoutCommand command, Exception ex) {
        // The record may still reach the broker after we gave up; that is harmless: a retry publishes the same
        // command id and the worker applies it once.
        log.warn("Checkout command {} for order {} was not acknowledged", command.commandId(), command.orderId(), ex);
        return new BrokerUnavailableException(command.orderId(), properties.retryAfter(), ex);
    }

    private static boolean brokerTrouble(@Nullable Throwable ex) {
        for (Throwable current = ex; current != null; current = current.getCause()) {
            if (current instanceof RetriableException) {
                return true;
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return false;
    }
}
