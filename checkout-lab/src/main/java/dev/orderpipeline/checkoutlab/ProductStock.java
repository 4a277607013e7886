package dev.orderpipeline.checkoutlab;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/**
 * What a strategy reads of a product: a snapshot that is only as good as the lock or guard that protects it.
 *
 * @param id the product
 * @param stock units left when read
 * @param price unit price, for the payment
 * @param rowVersion the row's xmin when read: the optimistic token, changed by every writer of the row
 */
record ProductStock(UUID id, int stock, BigDecimal price, long rowVersion) {

    ProductStock {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(price, "price");
    }

    boolean covers(int quantity) {
        return stock >= quantity;
    }
}
