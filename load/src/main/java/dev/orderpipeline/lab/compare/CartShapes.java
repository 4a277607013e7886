package dev.orderpipeline.lab.compare;

import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * Which products each buyer's cart holds, in line order. Buyers come in pairs: both carts of a pair hold the same
 * consecutive products of the hot set, the second one in the opposite line order, so every pair of products is
 * asked for both ways round, which is the shape that deadlocks when rows are locked in line order. Pairs start one
 * product further each time, so every product is asked for about equally often.
 */
final class CartShapes {

    private CartShapes() {}

    /**
     * @param products the hot products
     * @param carts how many carts
     * @param lines products per cart, 2 to as many as there are products ({@link CompareSettings.Carts})
     * @return per cart, its products in line order
     */
    static List<List<UUID>> of(List<UUID> products, int carts, int lines) {
        return IntStream.range(0, carts)
                .mapToObj(cart -> {
                    var start = (cart / 2) % products.size();
                    var inLineOrder = IntStream.range(0, lines)
                            .mapToObj(line -> products.get((start + line) % products.size()))
                            .toList();
                    return cart % 2 == 0 ? inLineOrder : inLineOrder.reversed();
                })
                .toList();
    }
}
