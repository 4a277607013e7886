package dev.orderpipeline.lab.chaos;

/** The kinds of poison records the experiment writes to the command topic. */
public enum PoisonKind {
    /** Random bytes: no JSON at all. */
    GARBAGE_BYTES("garbage-bytes"),
    /** Text that starts like a command and is not valid JSON. */
    INVALID_JSON("invalid-json"),
    /** A well-formed command of a real order, for 0 units. */
    ZERO_QUANTITY("quantity-0"),
    /** A well-formed command without an order id. */
    MISSING_ORDER_ID("missing-order-id"),
    /** A well-formed command of a real order that names another product than the order's. */
    PRODUCT_MISMATCH("product-not-the-order-s");

    private final String label;

    PoisonKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
