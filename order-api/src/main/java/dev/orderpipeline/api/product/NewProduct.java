package dev.orderpipeline.api.product;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/** A product about to be inserted; the database adds the timestamps. */
record NewProduct(UUID id, String name, int stock, BigDecimal price) {

    static final int MAX_NAME_LENGTH = 200;

    NewProduct {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(price, "price");
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("name must be 1 to " + MAX_NAME_LENGTH + " characters, not blank");
        }
        if (stock < 0) {
            throw new IllegalArgumentException("stock must not be negative, was " + stock);
        }
        if (price.signum() < 0 || price.scale() > 2) {
            throw new IllegalArgumentException("price must be positive or zero with at most 2 decimals, was " + price);
        }
    }
}
