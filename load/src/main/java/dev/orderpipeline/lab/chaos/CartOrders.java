package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.Orders;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * The carts of a chaos load: which of the prepared orders are carts, which of the hot products each holds (two or
 * three, one unit each, in an order drawn for each cart, so that carts lock the same products in every order), and
 * their creation through the API ({@code POST /api/orders} with lines), as a buyer places one.
 */
final class CartOrders {

    private CartOrders() {}

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
    static List<PreparedOrder> create(
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
