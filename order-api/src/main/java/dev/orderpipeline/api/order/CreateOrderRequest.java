package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.Caller;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/orders}. Its fields are nullable so that bean validation, not the JSON reader, reports
 * what is missing.
 */
record CreateOrderRequest(
        @Nullable @NotNull UUID productId,
        @Nullable @NotNull @Positive Integer quantity) {

    /** The order to place for the caller, with a fresh id; call it on a validated request only. */
    NewOrder toNewOrder(Caller caller) {
        return new NewOrder(
                UUID.randomUUID(),
                caller.userId(),
                Objects.requireNonNull(productId, "productId"),
                Objects.requireNonNull(quantity, "quantity"));
    }
}
