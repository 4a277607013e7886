package dev.orderpipeline.contract;

/** Why the worker rejected a checkout; stored as text in {@code orders.reject_reason} and {@code processed_command}. */
public enum RejectReason {
    /** Not enough stock left when the checkout was applied. */
    INSUFFICIENT_STOCK,
    /** The order was no longer CREATED when the command was applied (another writer decided or claimed it). */
    ORDER_NOT_CREATED,
    /** A cart's reservations did not all arrive within the configured time; every one made was released. */
    RESERVATION_TIMEOUT
}
