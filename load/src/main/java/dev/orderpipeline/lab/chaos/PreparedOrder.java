package dev.orderpipeline.lab.chaos;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * An order created before the load, waiting for its checkout.
 *
 * @param orderId the order
 * @param product the index of its product in the run's product list; a cart's first line's product, which the
 *     stalls are counted on
 * @param userId its owner, who checks it out
 * @param cartLines a cart's products by index in the run's product list, in line order; empty for an order of one
 *     product
 */
record PreparedOrder(UUID orderId, int product, String userId, List<Integer> cartLines) {

    PreparedOrder {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(userId, "userId");
        cartLines = List.copyOf(cartLines);
        if (product < 0) {
            throw new IllegalArgumentException("product index must not be negative: " + product);
        }
        if (cartLines.size() == 1 || (!cartLines.isEmpty() && cartLines.getFirst() != product)) {
            throw new IllegalArgumentException("a cart has two lines or more, the first of its product: " + cartLines);
        }
    }

    /** An order of one product. */
    PreparedOrder(UUID orderId, int product, String userId) {
        this(orderId, product, userId, List.of());
    }

    /** A cart of the products, in line order. */
    static PreparedOrder cart(UUID orderId, String userId, List<Integer> lines) {
        return new PreparedOrder(orderId, lines.getFirst(), userId, lines);
    }

    boolean isCart() {
        return !cartLines.isEmpty();
    }
}
