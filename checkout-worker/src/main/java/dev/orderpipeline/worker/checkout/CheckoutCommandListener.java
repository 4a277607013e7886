package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.CheckoutPublisher.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.log.LogAccessor;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.support.KafkaUtils;
import org.springframework.kafka.support.serializer.SerializationUtils;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;

/**
 * Consumes the checkout commands a poll at a time: sets aside the records that are not readable commands, applies
 * the rest in one transaction, then reports results and dead letters. Returning commits the poll's offsets; throwing
 * (a transient database failure, an unacknowledged dead letter) has the whole poll redelivered.
 */
@Component
class CheckoutCommandListener {

    static final String ID = "checkout-commands";

    private static final LogAccessor LOG = new LogAccessor(CheckoutCommandListener.class);

    private final CheckoutApplier applier;
    private final CheckoutPublisher publisher;
    private final CheckoutMetrics metrics;

    CheckoutCommandListener(CheckoutApplier applier, CheckoutPublisher publisher, CheckoutMetrics metrics) {
        this.applier = applier;
        this.publisher = publisher;
        this.metrics = metrics;
    }

    @KafkaListener(id = ID, idIsGroup = false, topics = Topics.CHECKOUT_COMMANDS)
    void onCommands(List<ConsumerRecord<@Nullable String, @Nullable CheckoutCommand>> records) {
        metrics.polled(records.size());
        metrics.timeListener(() -> apply(records));
    }

    private void apply(List<ConsumerRecord<@Nullable String, @Nullable CheckoutCommand>> records) {
        var deliveries = new ArrayList<CheckoutDelivery>(records.size());
        var recordsByDelivery = new HashMap<CheckoutDelivery, ConsumerRecord<?, ?>>();
        var deadLetters = new ArrayList<DeadLetter>();
        for (var record : records) {
            var command = record.value();
            var problem = command == null ? unreadable(record) : mismatchedHeader(record, command);
            if (problem != null) {
                deadLetters.add(new DeadLetter(record, problem));
            } else {
                var delivery = new CheckoutDelivery(command, record.partition(), record.offset());
                deliveries.add(delivery);
                recordsByDelivery.put(delivery, record);
            }
        }

        var applied = applier.apply(deliveries);

        for (var invalid : applied.invalid()) {
            var record = recordsByDelivery.get(invalid.delivery());
            if (record == null) {
                throw new IllegalStateException("the applier returned a delivery it was not given");
            }
            deadLetters.add(new DeadLetter(record, new PoisonCommandException(invalid.reason(), null)));
        }
        metrics.timeStep("results", () -> publisher.publishResults(applied.results()));
        metrics.timeStep("dead_letters", () -> publisher.deadLetter(deadLetters));
    }

    private static PoisonCommandException unreadable(ConsumerRecord<?, ?> record) {
        var failure =
                SerializationUtils.getExceptionFromHeader(record, KafkaUtils.VALUE_DESERIALIZER_EXCEPTION_HEADER, LOG);
        if (failure == null) {
            return new PoisonCommandException("no command: the record has no value", null);
        }
        // Jackson's own failure says what is wrong with the JSON, or which check of the record's constructor failed
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (current instanceof JacksonException) {
                cause = current;
                break;
            }
        }
        return new PoisonCommandException("unreadable command: " + PoisonCommandException.describe(cause), failure);
    }

    /** The command id header, if there is one, must name the command it travels with. */
    private static @Nullable PoisonCommandException mismatchedHeader(
            ConsumerRecord<?, ?> record, CheckoutCommand command) {
        var header = record.headers().lastHeader(Headers.COMMAND_ID);
        if (header == null || header.value() == null) {
            return null;
        }
        var headerValue = new String(header.value(), StandardCharsets.UTF_8);
        if (headerValue.equals(command.commandId().toString())) {
            return null;
        }
        return new PoisonCommandException(
                "header " + Headers.COMMAND_ID + " " + headerValue + " is not the command's id " + command.commandId(),
                null);
    }
}
