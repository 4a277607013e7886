package dev.orderpipeline.worker.cart;

import dev.orderpipeline.worker.checkout.CheckoutPublisher.DeadLetter;
import dev.orderpipeline.worker.checkout.PoisonCommandException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

/**
 * A poll of one of the saga's topics, split into the deliveries to apply and the records to dead-letter: those that
 * do not read as a valid message, or whose command id header names another message.
 *
 * @param <M> the message type
 */
final class Polled<M> {

    private final List<Delivery<M>> deliveries = new ArrayList<>();
    private final Map<Delivery<M>, ConsumerRecord<?, ?>> records = new HashMap<>();
    private final List<DeadLetter> deadLetters = new ArrayList<>();

    Polled(List<? extends ConsumerRecord<?, ? extends @Nullable M>> polled, Function<M, UUID> commandId) {
        for (var record : polled) {
            M message = record.value();
            var problem = message == null
                    ? PoisonCommandException.unreadable(record)
                    : PoisonCommandException.mismatchedHeader(record, commandId.apply(message));
            if (problem != null) {
                deadLetters.add(new DeadLetter(record, problem));
            } else {
                var delivery = new Delivery<>(message, record.partition(), record.offset());
                deliveries.add(delivery);
                records.put(delivery, record);
            }
        }
    }

    List<Delivery<M>> deliveries() {
        return deliveries;
    }

    /** Adds the records of deliveries the applier could not apply to the dead letters. */
    void deadLetter(List<InvalidDelivery> invalid) {
        for (var each : invalid) {
            var record = records.get(each.delivery());
            if (record == null) {
                throw new IllegalStateException("the applier returned a delivery it was not given");
            }
            deadLetters.add(new DeadLetter(record, new PoisonCommandException(each.reason(), null)));
        }
    }

    List<DeadLetter> deadLetters() {
        return deadLetters;
    }
}
