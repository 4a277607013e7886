package dev.orderpipeline.api.strategy;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/**
 * What a strategy reads of a product: a snapshot that is only as good as the lock or guard that protects it.
 *
 * @param id the product
 * @param stock units left when read
 * @param price unit price, for the payment
 * @param version the optimistic concurrency token when read
 */
record ProductStock(UUID id, int stock, BigDecimal price, long version) {

    ProductStock {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(price, "price");
    }

    boolean covers(int quantity) {
        return stock >= quantity;
    }
}
