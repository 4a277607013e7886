/**
 * Orders: their creation and lookup over HTTP, the {@code orders} table and a cart's {@code order_line} rows. An
 * order is one product (the common case: one order row, decided by one command keyed by the product) or a cart of
 * several, each line with its own state. An order is visible to its owner only; to anyone else it does not exist.
 * A request with an {@code Idempotency-Key} places its order once per key ({@link
 * dev.orderpipeline.api.order.OrderPlacement}, the {@code order_idempotency_key} table).
 * Checkout, which moves an order to its final status, lives in {@code checkout}.
 */
@NullMarked
package dev.orderpipeline.api.order;

import org.jspecify.annotations.NullMarked;
