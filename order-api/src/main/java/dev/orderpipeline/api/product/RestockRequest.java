package dev.orderpipeline.api.product;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.jspecify.annotations.Nullable;

/** Body of {@code POST /api/products/{id}/restock}: the units to add to the stock. */
record RestockRequest(@Nullable @NotNull @Positive Integer units) {}
