package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.Orders;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * An order created before the load, waiting for its checkout. A share of a load's orders are carts: two or three of
 * the hot products, one unit each, in an order drawn for each cart, so that carts lock the same products in every
 * order, created through the API ({@code POST /api/orders} with lines) as a buyer places one.
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

    /**
     * Creates the carts, a few at a time over the API replicas, in the order given; fails on the first error.
     *
     * @param carts each cart's products by index in {@code products}, in line order
     */
    static List<PreparedOrder> createCarts(
            List<ApiClient> apis,
            List<UUID> products,
            List<List<Integer>> carts,
            String userPrefix,
            Progress progress) {
        var ids = Orders.place(
                apis,
                carts.size(),
                (api, index) -> {
                    var units = new LinkedHashMap<UUID, Integer>();
                    carts.get(index).forEach(product -> units.put(products.get(product), 1));
                    return api.createCart(userPrefix + index, units);
                },
                progress);
        return IntStream.range(0, carts.size())
                .mapToObj(index -> PreparedOrder.cart(ids.get(index), userPrefix + index, carts.get(index)))
                .toList();
    }
}
