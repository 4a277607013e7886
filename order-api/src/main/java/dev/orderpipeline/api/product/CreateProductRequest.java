package dev.orderpipeline.api.product;

import dev.orderpipeline.api.web.PlainText;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/products}. Its fields are nullable so that bean validation, not the JSON reader, reports
 * what is missing, all fields at once.
 */
record CreateProductRequest(
        @Nullable @NotBlank @Size(max = NewProduct.MAX_NAME_LENGTH) @PlainText
        String name,

        @Nullable @NotNull @PositiveOrZero Integer stock,
        // numeric(12,2): ten integer digits, two decimals
        @Nullable @NotNull @DecimalMin("0") @Digits(integer = 10, fraction = 2)
        BigDecimal price) {

    /** The product to insert, with a fresh id; call it on a validated request only. */
    NewProduct toNewProduct() {
        return new NewProduct(
                UUID.randomUUID(),
                Objects.requireNonNull(name, "name").strip(),
                Objects.requireNonNull(stock, "stock"),
                Objects.requireNonNull(price, "price"));
    }
}
