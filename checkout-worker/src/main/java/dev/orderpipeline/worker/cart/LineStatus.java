package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.ReservationReply.LineOutcome;
import org.jspecify.annotations.Nullable;

/** A cart line's state, as {@code order_line.status} holds it (see the V3 migration for the transitions). */
enum LineStatus {
    PENDING,
    RESERVED,
    REFUSED,
    CANCELLED,
    SOLD,
    RELEASING,
    RELEASED;

    /** Units of the line's product that the line holds: taken from stock, neither sold nor given back. */
    boolean holds() {
        return this == RESERVED || this == RELEASING;
    }

    /** What a reply says about a line in this state; null while it waits for its reservation. */
    @Nullable
    LineOutcome outcome() {
        return switch (this) {
            case PENDING -> null;
            case RESERVED, SOLD, RELEASING -> LineOutcome.RESERVED;
            case REFUSED -> LineOutcome.REFUSED;
            case CANCELLED -> LineOutcome.CANCELLED;
            case RELEASED -> LineOutcome.RELEASED;
        };
    }
}
