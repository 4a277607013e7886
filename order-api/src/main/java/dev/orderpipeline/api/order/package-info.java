/**
 * Orders: their creation and lookup over HTTP and the {@code orders} table. An order is visible to its owner only;
 * to anyone else it does not exist. Checkout, which moves an order to its final status, lives in {@code checkout}.
 */
@NullMarked
package dev.orderpipeline.api.order;

import org.jspecify.annotations.NullMarked;
