package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.RejectReason;
import java.util.Comparator;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An {@code order_line} row as a transaction locked it.
 *
 * @param orderId the cart
 * @param lineNo the line within it
 * @param productId the line's product
 * @param quantity the line's units
 * @param status its state
 * @param rejectReason why it was refused, null unless REFUSED
 */
record Line(
        UUID orderId,
        int lineNo,
        UUID productId,
        int quantity,
        LineStatus status,
        @Nullable RejectReason rejectReason) {

    Line {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(status, "status");
    }

    Key key() {
        return new Key(orderId, lineNo);
    }

    CartLine cartLine() {
        return new CartLine(lineNo, productId, quantity);
    }

    /** The line in another state. */
    Line to(LineStatus next, @Nullable RejectReason reason) {
        return new Line(orderId, lineNo, productId, quantity, next, reason);
    }

    /**
     * A line's primary key, in the order every transaction locks lines: by order id, then line number.
     *
     * @param orderId the cart
     * @param lineNo the line
     */
    record Key(UUID orderId, int lineNo) implements Comparable<Key> {

        private static final Comparator<Key> LOCK_ORDER =
                Comparator.comparing(Key::orderId).thenComparingInt(Key::lineNo);

        Key {
            Objects.requireNonNull(orderId, "orderId");
        }

        @Override
        public int compareTo(Key other) {
            return LOCK_ORDER.compare(this, other);
        }
    }
}
