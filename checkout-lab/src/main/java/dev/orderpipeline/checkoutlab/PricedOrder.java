package dev.orderpipeline.checkoutlab;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * An order with the amount its payment captures.
 *
 * @param order the order
 * @param amount unit price times quantity, two decimals
 */
record PricedOrder(LabOrder order, BigDecimal amount) {

    PricedOrder {
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(amount, "amount");
        if (amount.signum() < 0) {
            throw new IllegalArgumentException("amount must not be negative, was " + amount);
        }
    }
}
