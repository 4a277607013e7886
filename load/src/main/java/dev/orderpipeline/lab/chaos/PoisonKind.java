package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;

/**
 * The kinds of poison records the experiment writes: to the command topic, and to the cart saga's topics (the cart
 * checkouts and the reservation steps), each to be dead-lettered on its topic's {@code .dlt}.
 */
public enum PoisonKind {
    GARBAGE_BYTES("garbage-bytes", Topics.CHECKOUT_COMMANDS),
    /** Text that starts like a command and is not valid JSON. */
    INVALID_JSON("invalid-json", Topics.CHECKOUT_COMMANDS),
    /** A well-formed command of a real order, for 0 units. */
    ZERO_QUANTITY("quantity-0", Topics.CHECKOUT_COMMANDS),
    MISSING_ORDER_ID("missing-order-id", Topics.CHECKOUT_COMMANDS),
    /** A well-formed command of a real order that names another product than the order's. */
    PRODUCT_MISMATCH("product-not-the-order-s", Topics.CHECKOUT_COMMANDS),
    CART_INVALID_JSON("cart-invalid-json", Topics.CHECKOUT_CARTS),
    /** A well-formed cart checkout of a real order that is not a cart (a decoy of one product). */
    CART_NOT_A_CART("cart-of-an-order-of-one-product", Topics.CHECKOUT_CARTS),
    RESERVATION_GARBAGE_BYTES("reservation-garbage-bytes", Topics.CHECKOUT_RESERVATIONS),
    /** A well-formed reservation of a hot product for a line that does not exist (of a decoy order of one product). */
    RESERVATION_NO_SUCH_LINE("reservation-of-no-line", Topics.CHECKOUT_RESERVATIONS);

    private final String label;
    private final String topic;

    PoisonKind(String label, String topic) {
        this.label = label;
        this.topic = topic;
    }

    public String label() {
        return label;
    }

    public String topic() {
        return topic;
    }

    @Override
    public String toString() {
        return label;
    }
}
