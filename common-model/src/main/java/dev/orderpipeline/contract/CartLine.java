package dev.orderpipeline.contract;

import java.util.Objects;
import java.util.UUID;

/**
 * One line of a cart: a product and how many units of it.
 *
 * @param lineNo the line's number within its order, from 1
 * @param productId the product
 * @param quantity units, positive
 */
public record CartLine(int lineNo, UUID productId, int quantity) {

    public CartLine {
        Objects.requireNonNull(productId, "productId");
        if (lineNo < 1) {
            throw new IllegalArgumentException("lineNo must be positive, was " + lineNo);
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
    }
}
