package dev.orderpipeline.checkoutlab;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A single-product order as the lab reads it, and as a lab checkout answers it: the production order's fields,
 * with the lab's statuses and reasons.
 */
record LabOrder(
        UUID id,
        String userId,
        UUID productId,
        int quantity,
        LabStatus status,
        @Nullable LabRejectReason rejectReason,
        Instant createdAt,
        Instant updatedAt)
        implements LabCheckoutable {

    LabOrder {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
