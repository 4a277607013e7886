/**
 * The database-lock checkout strategies of the lab, one class each, behind the same {@code POST
 * /api/orders/{id}/checkout?strategy=...}: {@code naive}, {@code naive-tx}, {@code app-lock}, {@code db-atomic},
 * {@code for-update}, {@code optimistic}, {@code serializable}, {@code status-claim}. They decide in the request and
 * record the same rows (status, reject reason, one CAPTURED payment of price times quantity), so their results
 * compare one to one. The SQL they share is written once, in {@link
 * dev.orderpipeline.api.strategy.StockRepository}, {@link dev.orderpipeline.api.strategy.OrderStatusRepository}
 * and {@link dev.orderpipeline.api.strategy.PaymentRepository}. The naive ones are wrong on purpose; every other
 * one guards the order's status in its write and answers 409 when the guard finds nothing.
 *
 * <p>{@link dev.orderpipeline.api.strategy.StrategyProperties} holds the lab's knobs: the check-to-write delay that
 * makes races reproducible, and the retry limits.
 */
@NullMarked
package dev.orderpipeline.api.strategy;

import org.jspecify.annotations.NullMarked;
