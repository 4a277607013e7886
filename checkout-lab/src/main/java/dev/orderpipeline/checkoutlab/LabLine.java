package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.order.LineStatus;
import dev.orderpipeline.contract.RejectReason;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A line of a cart as the lab reads it: the production line's fields (the lab's cart strategies record only the
 * pipeline's line states and reasons).
 */
record LabLine(
        int lineNo,
        UUID productId,
        int quantity,
        LineStatus status,
        @Nullable RejectReason rejectReason) {

    LabLine {
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(status, "status");
    }
}
