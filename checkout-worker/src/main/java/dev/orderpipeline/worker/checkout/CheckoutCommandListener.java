package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.CheckoutPublisher.DeadLetter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Consumes the checkout commands a poll at a time: sets aside the records that are not readable commands, applies
 * the rest in one transaction, then reports results and dead letters. Returning commits the poll's offsets; throwing
 * (a transient database failure, an unacknowledged dead letter) has the whole poll redelivered.
 */
@Component
class CheckoutCommandListener {

    static final String ID = "checkout-commands";

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
            var problem = command == null
                    ? PoisonCommandException.unreadable(record)
                    : PoisonCommandException.mismatchedHeader(record, command.commandId());
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
        metrics.timeStep("stock", () -> publisher.publishStock(applied.stockLeft()));
        metrics.timeStep("dead_letters", () -> metrics.deadLettered(publisher.deadLetter(deadLetters)));
    }
}
