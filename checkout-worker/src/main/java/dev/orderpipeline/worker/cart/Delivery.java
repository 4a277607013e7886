package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.ReservationCommand;
import java.util.Comparator;
import java.util.Objects;
import java.util.UUID;

/**
 * A message of the saga as it was delivered.
 *
 * @param message the message
 * @param partition the partition it was read from
 * @param offset its offset there
 * @param <M> the message type
 */
record Delivery<M>(M message, int partition, long offset) {

    /**
     * The order fresh reservation steps are applied in: each product's steps as they came, products one after the
     * other by id, so that a later, smaller reservation may still fit where an earlier one did not.
     */
    static final Comparator<Delivery<ReservationCommand>> STEP_ORDER =
            Comparator.<Delivery<ReservationCommand>, UUID>comparing(
                            delivery -> delivery.message().productId())
                    .thenComparingInt(Delivery::partition)
                    .thenComparingLong(Delivery::offset);

    Delivery {
        Objects.requireNonNull(message, "message");
        if (partition < 0 || offset < 0) {
            throw new IllegalArgumentException("partition and offset must not be negative");
        }
    }

    /** Names the delivery for a log line. */
    String describe(UUID commandId) {
        return message.getClass().getSimpleName() + " " + commandId + " at " + partition + "@" + offset;
    }
}
