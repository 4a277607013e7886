package dev.orderpipeline.invariants;

/**
 * What the database says about some carts (a run's: orders of several products, checked out by the reservation saga),
 * each judged on all its lines, its payments and its checkout command's idempotency row (the one with an outcome: the
 * saga's step rows have none).
 *
 * @param placed the carts asked about
 * @param rejectedOutOfStock rejected because a line was out of stock
 * @param timedOut rejected because a reservation did not come in time
 * @param notFinal neither COMPLETED nor REJECTED
 * @param completedNotAllSold COMPLETED with a line that is not SOLD (a completion without its stock)
 * @param rejectedHolding REJECTED with a line RESERVED or SOLD (stock kept by a rejected cart)
 * @param held units on RESERVED and RELEASING lines
 * @param heldByFinal of those, units held by carts that are final: a release that never came
 * @param paidMoreThanOnce carts with two or more payments
 * @param paymentsWithoutCompletion payments of carts that are not COMPLETED
 * @param outcomeRows idempotency rows with an outcome
 * @param disagreeing carts whose idempotency rows with an outcome are not one for a decided cart (with its status) or
 *     none for an open one
 */
public record CartVerdict(
        long placed,
        long completed,
        long rejected,
        long rejectedOutOfStock,
        long timedOut,
        long notFinal,
        long completedNotAllSold,
        long rejectedHolding,
        long held,
        long heldByFinal,
        long payments,
        long paidMoreThanOnce,
        long paymentsWithoutCompletion,
        long outcomeRows,
        long disagreeing) {

    public long decided() {
        return completed + rejected;
    }
}
