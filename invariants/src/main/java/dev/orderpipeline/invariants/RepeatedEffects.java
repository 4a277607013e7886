package dev.orderpipeline.invariants;

/**
 * What was done more than once to some orders (a run's retried checkouts, say).
 *
 * @param paidMoreThanOnce orders with two or more payments
 * @param processedMoreThanOnce orders with two or more idempotency rows with an outcome: decided twice
 */
public record RepeatedEffects(long paidMoreThanOnce, long processedMoreThanOnce) {}
