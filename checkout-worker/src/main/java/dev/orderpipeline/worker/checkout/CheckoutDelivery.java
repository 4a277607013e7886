package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import java.util.Comparator;
import java.util.Objects;
import java.util.UUID;

/**
 * A checkout command as it was delivered. Its place in the partition decides when it is applied relative to the
 * product's other commands.
 *
 * @param command the command
 * @param partition the partition it was read from
 * @param offset its offset in that partition
 */
record CheckoutDelivery(CheckoutCommand command, int partition, long offset) {

    /**
     * The order fresh commands are applied in: each product's commands as they came, and products one after the
     * other in a fixed order, so that overlapping transactions lock product rows in the same order.
     */
    static final Comparator<CheckoutDelivery> APPLY_ORDER = Comparator.<CheckoutDelivery, UUID>comparing(
                    delivery -> delivery.command().productId())
            .thenComparingInt(CheckoutDelivery::partition)
            .thenComparingLong(CheckoutDelivery::offset);

    CheckoutDelivery {
        Objects.requireNonNull(command, "command");
        if (partition < 0 || offset < 0) {
            throw new IllegalArgumentException("partition and offset must not be negative");
        }
    }
}
