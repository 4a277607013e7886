/**
 * Checkout: {@code POST /api/orders/{id}/checkout}, the pipeline's door. {@link
 * dev.orderpipeline.api.checkout.CheckoutService} loads the caller's CREATED order, publishes a {@link
 * dev.orderpipeline.contract.CheckoutCommand} keyed by product, or for a cart one {@link
 * dev.orderpipeline.contract.CartCheckoutCommand} keyed by the order ({@link
 * dev.orderpipeline.api.checkout.CheckoutCommandPublisher}), and, when the client prefers to wait, waits for the
 * worker's {@link dev.orderpipeline.contract.CheckoutResult} on the results topic, which every instance of the API
 * reads in full ({@link dev.orderpipeline.api.checkout.CheckoutResultListener}, {@link
 * dev.orderpipeline.api.checkout.CheckoutWaiters}), which also feed an order's live status, {@code GET
 * /api/orders/{id}/events} as server-sent events ({@link dev.orderpipeline.api.checkout.OrderEventStreams}). Once the broker acknowledged the command every answer is 202 or
 * 200; a command the producer took but could not confirm answers 503 {@code checkout-outcome-unknown}, never the
 * {@code broker-unavailable} of a command not sent. A database failure during a checkout answers 503 {@code
 * database-unavailable}, never a 500. The broker's health is the {@code kafka} component of the overall health and
 * of no probe group ({@link dev.orderpipeline.api.checkout.BrokerHealthIndicator} says why).
 */
@NullMarked
package dev.orderpipeline.api.checkout;

import org.jspecify.annotations.NullMarked;
