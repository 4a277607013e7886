/**
 * Checkout: {@code POST /api/orders/{id}/checkout} and the strategies behind it. The steps every strategy shares
 * (load the caller's order, refuse one that is not CREATED, price the payment) are {@link
 * dev.orderpipeline.api.checkout.CheckoutSteps}; a {@link dev.orderpipeline.api.checkout.CheckoutStrategy} does
 * the rest: the {@code kafka} strategy here, the database-lock strategies in {@code strategy}. A database failure
 * during a checkout answers 503 {@code database-unavailable}, never a 500. The {@code kafka} strategy publishes a {@link dev.orderpipeline.contract.CheckoutCommand} keyed by
 * product and, when the client prefers to wait, waits for the worker's {@link
 * dev.orderpipeline.contract.CheckoutResult} on the results topic, which every instance of the API reads in full.
 * The broker's health is the {@code kafka} component of the overall health and of no probe group ({@link
 * dev.orderpipeline.api.checkout.BrokerHealthIndicator} says why).
 */
@NullMarked
package dev.orderpipeline.api.checkout;

import org.jspecify.annotations.NullMarked;
