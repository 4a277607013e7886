package dev.orderpipeline.api.order;

/** Where an order is in its life; stored as text in {@code orders.status}. */
public enum OrderStatus {
    /** Placed, not checked out yet: the only status a checkout starts from. */
    CREATED,
    COMPLETED,
    REJECTED;

    /** Whether a checkout has decided this order for good. */
    public boolean isFinal() {
        return this == COMPLETED || this == REJECTED;
    }
}
