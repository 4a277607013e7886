package dev.orderpipeline.lab.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * An order created before the load, of one product or a cart of 2-3 (indexes into the run's products, in line order).
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

    PreparedOrder(UUID orderId, int product, String userId) {
        this(orderId, product, userId, List.of());
    }

    boolean isCart() {
        return !cartLines.isEmpty();
    }

    /** Whether order {@code index} of the load is a cart: spread evenly, {@code share} of them in all. */
    static boolean isCart(int index, double share) {
        return Math.floor((index + 1) * share) > Math.floor(index * share);
    }

    /** A cart's products by index, in line order: two of them, or three when there are three or more. */
    static List<Integer> lines(Random random, int products) {
        if (products < 2) {
            throw new IllegalArgumentException("a cart needs two products, the run has " + products);
        }
        var size = products >= 3 ? 2 + random.nextInt(2) : 2;
        var all = new ArrayList<>(IntStream.range(0, products).boxed().toList());
        Collections.shuffle(all, random);
        return List.copyOf(all.subList(0, size));
    }
}
