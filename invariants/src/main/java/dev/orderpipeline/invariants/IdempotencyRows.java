package dev.orderpipeline.invariants;

/**
 * A product's single-product orders beside the worker's idempotency table ({@code processed_command}): one row per
 * decided order, with the order's outcome (unless the worker's retention job has deleted it since).
 *
 * @param decidedOrders orders COMPLETED or REJECTED, each counted once
 * @param rows idempotency rows of the product's orders: more than the decided orders is a command applied twice
 * @param disagreeing rows whose outcome is not their order's status
 */
public record IdempotencyRows(long decidedOrders, long rows, long disagreeing) {

    /** A product without orders. */
    public static final IdempotencyRows NONE = new IdempotencyRows(0, 0, 0);
}
