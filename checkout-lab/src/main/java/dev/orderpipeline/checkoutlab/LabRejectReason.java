package dev.orderpipeline.checkoutlab;

/**
 * Why a lab strategy rejected an order: the pipeline's reason, and the lab's own, which only a lab database allows
 * (see {@code db/lab/afterMigrate.sql}).
 */
enum LabRejectReason {
    /** Not enough stock left: the same reason the pipeline records. */
    INSUFFICIENT_STOCK,
    /** Optimistic concurrency: the row kept changing until the retry limit. */
    OPTIMISTIC_RETRIES_EXHAUSTED,
    /** SERIALIZABLE isolation kept failing with serialization errors until the retry limit. */
    SERIALIZATION_RETRIES_EXHAUSTED,
    /**
     * A cart strategy's transaction was aborted as the victim of a deadlock (SQLSTATE 40P01) on every attempt up to
     * the retry limit; the cart's lines are CANCELLED, nothing was taken.
     */
    DEADLOCK_RETRIES_EXHAUSTED,
    /**
     * The status-claim strategy failed after its claim. The claim is not handed back: another writer (a pipeline
     * checkout of the same order) may have seen the order PROCESSING and recorded its command as done, so an order
     * back in CREATED could never be decided again.
     */
    CHECKOUT_FAILED
}
