package dev.orderpipeline.invariants;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * What the database says about one product after a run of checkouts.
 *
 * @param productId the product checked
 * @param initialStock the stock the run started with (the caller knows it; the database does not keep it)
 * @param stockLeft the product's stock now
 * @param completedOrders orders in status COMPLETED
 * @param completedQuantity units those orders took
 * @param rejectedOrders orders in status REJECTED
 * @param rejectionsByReason rejected orders counted by reject reason
 * @param ordersNotFinal orders not decided yet
 * @param payments payment rows of the product's orders
 * @param ordersPaidMoreThanOnce orders with two or more payments (a double charge)
 * @param paymentsWithoutCompletion payments whose order is not COMPLETED (a half-done checkout)
 */
public record InvariantReport(
        UUID productId,
        int initialStock,
        int stockLeft,
        long completedOrders,
        long completedQuantity,
        long rejectedOrders,
        Map<String, Long> rejectionsByReason,
        long ordersNotFinal,
        long payments,
        long ordersPaidMoreThanOnce,
        long paymentsWithoutCompletion) {

    public InvariantReport {
        Objects.requireNonNull(productId, "productId");
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        if (initialStock < 0) {
            throw new IllegalArgumentException("initialStock must not be negative");
        }
    }

    /** More units sold than there were. */
    public boolean oversold() {
        return completedQuantity > initialStock;
    }

    /**
     * How far the books are off: stock left + units sold - initial stock. Zero when every decrement was kept;
     * positive when decrements were lost (lost updates); negative when stock left without a completed order.
     */
    public long drift() {
        return stockLeft + completedQuantity - initialStock;
    }

    /** Payments beyond the first of each order. */
    public long doublePayments() {
        return ordersPaidMoreThanOnce;
    }

    /** Every invariant holds: no oversell, no drift, no double or dangling payment, every order final. */
    public boolean holds() {
        return !oversold()
                && drift() == 0
                && ordersPaidMoreThanOnce == 0
                && paymentsWithoutCompletion == 0
                && ordersNotFinal == 0
                && payments == completedOrders;
    }

    /** The invariants that do not hold, in words; empty when {@link #holds()}. */
    public List<String> violations() {
        var violations = new ArrayList<String>();
        if (oversold()) {
            violations.add("oversell: " + completedQuantity + " units sold of " + initialStock);
        }
        if (drift() != 0) {
            violations.add(
                    "drift: stock " + stockLeft + " + sold " + completedQuantity + " != initial " + initialStock);
        }
        if (ordersPaidMoreThanOnce > 0) {
            violations.add("double payment: " + ordersPaidMoreThanOnce + " orders paid more than once");
        }
        if (paymentsWithoutCompletion > 0) {
            violations.add("half-done checkout: " + paymentsWithoutCompletion + " payments on orders not completed");
        }
        if (ordersNotFinal > 0) {
            violations.add("not final: " + ordersNotFinal + " orders not decided yet");
        }
        if (ordersPaidMoreThanOnce == 0 && paymentsWithoutCompletion == 0 && payments != completedOrders) {
            violations.add("unpaid: " + completedOrders + " completed orders but " + payments + " payments");
        }
        return List.copyOf(violations);
    }
}
