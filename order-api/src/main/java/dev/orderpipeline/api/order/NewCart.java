package dev.orderpipeline.api.order;

import dev.orderpipeline.contract.CartLine;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A cart about to be placed: an order of two or more distinct products, stored as an order row without product and
 * one {@code order_line} row per product.
 *
 * @param lines numbered from 1 in the order the client listed the products, each product once
 */
record NewCart(UUID id, String userId, List<CartLine> lines) implements Placement {

    NewCart {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        lines = List.copyOf(lines);
        if (userId.isBlank()) {
            throw new IllegalArgumentException("userId must not be blank");
        }
        if (lines.size() < 2) {
            throw new IllegalArgumentException("a cart has at least two products, this one " + lines.size());
        }
        var products = new HashSet<UUID>();
        for (var i = 0; i < lines.size(); i++) {
            if (lines.get(i).lineNo() != i + 1) {
                throw new IllegalArgumentException("lines are numbered 1.." + lines.size() + " in order");
            }
            if (!products.add(lines.get(i).productId())) {
                throw new IllegalArgumentException("product " + lines.get(i).productId() + " is on two lines");
            }
        }
    }
}
