package dev.orderpipeline.api.order;

/**
 * Where a line of an order is in its checkout; stored as text in {@code order_line.status} for a cart, derived from
 * the order's status for a single-product order.
 */
public enum LineStatus {
    /** Not reserved yet. */
    PENDING,
    /** The units are taken from stock and held for the order. */
    RESERVED,
    /** Not enough stock: the order is (or will be) rejected. */
    REFUSED,
    /** The order was decided before this line was reserved: nothing was taken. */
    CANCELLED,
    /** The order completed: the units are sold. */
    SOLD,
    /** The order was rejected after this line was reserved: its units are on their way back to stock. */
    RELEASING,
    /** The units reserved for a rejected order are back in stock. */
    RELEASED;

    /** The one line of a single-product order, as its order's status says. */
    static LineStatus of(OrderStatus status) {
        return switch (status) {
            case CREATED -> PENDING;
            case COMPLETED -> SOLD;
            case REJECTED -> REFUSED;
        };
    }
}
