/**
 * The lab's part of order-api, a jar of its own that order-api's jar and image never hold: the lab's stacks and
 * {@code bin/run --lab} put it on order-api's class path (Spring Boot's PropertiesLauncher, {@code loader.path}), and
 * even there it is absent unless {@code orderpipeline.lab.enabled=true} ({@link
 * dev.orderpipeline.checkoutlab.LabAutoConfiguration}): the database-lock checkout strategies of the articles
 * ({@code naive}, {@code naive-tx}, {@code app-lock}, {@code db-atomic}, {@code for-update}, {@code optimistic},
 * {@code serializable}, {@code status-claim}; for carts {@code cart-for-update} and {@code
 * cart-for-update-unsorted}, {@link dev.orderpipeline.checkoutlab.CartForUpdateCheckouts}) behind {@code POST
 * /api/orders/{id}/checkout?strategy=...}, and the deadlock demonstration {@link dev.orderpipeline.checkoutlab.MultiProductReservation}.
 *
 * <p>The strategies decide in the request and record the same rows as the pipeline (status, reject reason, one
 * CAPTURED payment of price times quantity), so their results compare one to one. The SQL they share is written
 * once, in {@link dev.orderpipeline.checkoutlab.StockRepository}, {@link
 * dev.orderpipeline.checkoutlab.OrderStatusRepository} and {@link dev.orderpipeline.checkoutlab.PaymentRepository}.
 * The naive ones are wrong on purpose; every other one guards the order's status in its write, answers 409 when
 * the guard finds nothing, and stays correct beside every other writer of the same rows, the pipeline's worker
 * included (app-lock only beside writers that take the same lock in the same process).
 *
 * <p>This package may use the production API's public types; production code never uses this package (an
 * architecture test says so).
 */
@NullMarked
package dev.orderpipeline.checkoutlab;

import org.jspecify.annotations.NullMarked;
