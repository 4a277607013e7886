package dev.orderpipeline.lab.backlog;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Products and orders prepared in the database for one run, in the order their checkouts are to be sent: order
 * {@code i} belongs to user {@code <tag>-<i>} and to product {@code products[productOfOrder[i]]}, quantity 1, status
 * CREATED. Order ids are kept as two arrays of longs, not as a million UUID objects.
 *
 * @param initialStock the stock each product started with, by product id
 */
public record Backlog(
        String tag,
        List<UUID> products,
        Map<UUID, Integer> initialStock,
        long[] orderHigh,
        long[] orderLow,
        int[] productOfOrder) {

    public Backlog {
        if (orderHigh.length != orderLow.length || orderHigh.length != productOfOrder.length) {
            throw new IllegalArgumentException("one product per order");
        }
        products = List.copyOf(products);
        initialStock = Collections.unmodifiableMap(new LinkedHashMap<>(initialStock));
    }

    public int size() {
        return orderHigh.length;
    }

    public UUID orderId(int index) {
        return new UUID(orderHigh[index], orderLow[index]);
    }

    public UUID productId(int index) {
        return products.get(productOfOrder[index]);
    }

    public String userId(int index) {
        return tag + "-" + index;
    }

    /** Order id to index, for matching results to the commands sent. */
    public Map<UUID, Integer> indexByOrder() {
        var index = new HashMap<UUID, Integer>(size() * 2);
        for (var i = 0; i < size(); i++) {
            index.put(orderId(i), i);
        }
        return index;
    }
}
