package dev.orderpipeline.lab.carts;

import org.jspecify.annotations.Nullable;

/**
 * One strategy's run: a row of every carts table.
 *
 * @param abortedTransactions transactions order-api's lab counted as aborted and retried (deadlock victims);
 *     {@code null} when it does not count them (the saga, or an API without the count)
 * @param deadlocks deadlocks PostgreSQL broke in the run's database while it ran
 * @param decisionsMissing carts the lab saw no decision of although the database has them final (the saga's
 *     results that did not reach the lab); 0 for the strategies that decide in the request
 */
public record CartRun(
        String strategy,
        BurstFigures burst,
        @Nullable Long abortedTransactions,
        long deadlocks,
        long decisionsMissing,
        boolean finalTimedOut,
        CartInvariants invariants) {}
