package dev.orderpipeline.checkoutlab;

/**
 * An order's status as the lab's strategies see it: the pipeline's three, and PROCESSING, the claim of the
 * status-claim strategy, which only a lab database allows (see {@code db/lab/afterMigrate.sql}).
 */
enum LabStatus {
    CREATED,
    /** Claimed by the status-claim strategy before it decides. */
    PROCESSING,
    COMPLETED,
    REJECTED;

    boolean isFinal() {
        return this == COMPLETED || this == REJECTED;
    }
}
