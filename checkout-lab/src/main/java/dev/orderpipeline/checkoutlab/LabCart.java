package dev.orderpipeline.checkoutlab;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A cart as the lab reads it, and as a lab cart checkout answers it: the production order's fields ({@code
 * productId} and {@code quantity} null, as for a production cart), with the lab's statuses and reasons.
 */
record LabCart(
        UUID id,
        String userId,
        @Nullable UUID productId,
        @Nullable Integer quantity,
        List<LabLine> lines,
        LabStatus status,
        @Nullable LabRejectReason rejectReason,
        Instant createdAt,
        Instant updatedAt)
        implements LabCheckoutable {

    LabCart {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        lines = List.copyOf(lines);
        if (productId != null || quantity != null) {
            throw new IllegalArgumentException("a cart has no product of its own");
        }
    }
}
