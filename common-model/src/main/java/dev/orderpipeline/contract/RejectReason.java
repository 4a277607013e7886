package dev.orderpipeline.contract;

/** Why a checkout was rejected; stored as text in {@code orders.reject_reason}, the same for every strategy. */
public enum RejectReason {
    /** Not enough stock left when the checkout was applied. */
    INSUFFICIENT_STOCK,
    /** The order was no longer CREATED when the command was applied (another path decided or claimed it). */
    ORDER_NOT_CREATED,
    /** Optimistic concurrency: the version token kept changing until the retry limit. */
    OPTIMISTIC_RETRIES_EXHAUSTED,
    /** SERIALIZABLE isolation kept failing with serialization errors until the retry limit. */
    SERIALIZATION_RETRIES_EXHAUSTED
}
