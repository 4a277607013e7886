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
 * @param carts the product's cart lines and the carts that hold them ({@link CartInvariants#NONE} if there are none);
 *     the fields above are about the product's single-product orders
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
        long paymentsWithoutCompletion,
        CartInvariants carts) {

    /**
     * How a violation of liveness begins: orders or carts accepted and not decided yet. Every other violation is one
     * of safety (units sold twice or lost, a charge twice or without a sale), which no amount of waiting mends.
     */
    public static final String NOT_FINAL = "not final: ";

    public InvariantReport {
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(carts, "carts");
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        if (initialStock < 0) {
            throw new IllegalArgumentException("initialStock must not be negative");
        }
    }

    /** A product that no cart has a line of, as the checker reported before carts existed. */
    public InvariantReport(
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
        this(
                productId,
                initialStock,
                stockLeft,
                completedOrders,
                completedQuantity,
                rejectedOrders,
                rejectionsByReason,
                ordersNotFinal,
                payments,
                ordersPaidMoreThanOnce,
                paymentsWithoutCompletion,
                CartInvariants.NONE);
    }

    /** Units sold: by completed single-product orders and on SOLD cart lines. */
    public long soldQuantity() {
        return completedQuantity + carts.soldQuantity();
    }

    /** More units sold than there were. */
    public boolean oversold() {
        return soldQuantity() > initialStock;
    }

    /**
     * How far the books are off: stock left + units sold + units held by carts - initial stock. Zero when every
     * decrement was kept; positive when decrements were lost (lost updates); negative when stock left without a
     * completed order or a cart's reservation.
     */
    public long drift() {
        return stockLeft + soldQuantity() + carts.heldQuantity() - initialStock;
    }

    /** Units still held by carts although every order of the product is final: a release that never came. */
    public long heldAfterAllFinal() {
        return ordersNotFinal == 0 && carts.cartsNotFinal() == 0 ? carts.heldQuantity() : 0;
    }

    /** Payments beyond the first of each order. */
    public long doublePayments() {
        return ordersPaidMoreThanOnce;
    }

    /**
     * Every invariant holds: no oversell, no drift, no double or dangling payment, every order final; every completed
     * cart sold all its lines, no rejected cart keeps a reservation or a sale, nothing held once all is final.
     */
    public boolean holds() {
        return violations().isEmpty();
    }

    /** The invariants that do not hold, in words; empty when {@link #holds()}. */
    public List<String> violations() {
        return violations(0);
    }

    /**
     * The invariants that do not hold, in words, when {@code ordersNeverAccepted} of the product's orders were never
     * checked out (refused at the door, or not answered): such an order stays open by design, so only the open orders
     * beyond them are not final.
     */
    public List<String> violations(long ordersNeverAccepted) {
        var violations = new ArrayList<String>();
        if (oversold()) {
            violations.add("oversell: " + soldQuantity() + " units sold of " + initialStock);
        }
        if (drift() != 0) {
            violations.add("drift: stock " + stockLeft + " + sold " + soldQuantity()
                    + (carts.heldQuantity() == 0 ? "" : " + held " + carts.heldQuantity()) + " != initial "
                    + initialStock);
        }
        if (ordersPaidMoreThanOnce > 0) {
            violations.add("double payment: " + ordersPaidMoreThanOnce + " orders paid more than once");
        }
        if (paymentsWithoutCompletion > 0) {
            violations.add("half-done checkout: " + paymentsWithoutCompletion + " payments on orders not completed");
        }
        var undecided = ordersNotFinal - Math.min(ordersNotFinal, ordersNeverAccepted);
        if (undecided > 0) {
            violations.add(NOT_FINAL + undecided + " orders " + (ordersNeverAccepted == 0 ? "" : "checked out and ")
                    + "not decided yet");
        }
        if (ordersPaidMoreThanOnce == 0 && paymentsWithoutCompletion == 0 && payments != completedOrders) {
            violations.add("unpaid: " + completedOrders + " completed orders but " + payments + " payments");
        }
        cartViolations(violations);
        return List.copyOf(violations);
    }

    private void cartViolations(List<String> violations) {
        if (carts.completedCartsNotAllSold() > 0) {
            violations.add("completed cart not sold: " + carts.completedCartsNotAllSold()
                    + " completed carts have a line that is not SOLD");
        }
        if (carts.rejectedCartsHolding() > 0) {
            violations.add("rejected cart holding: " + carts.rejectedCartsHolding()
                    + " rejected carts have a line RESERVED or SOLD");
        }
        if (heldAfterAllFinal() > 0) {
            violations.add("held after all final: " + heldAfterAllFinal()
                    + " units held by carts although every order is final");
        }
        if (carts.cartsNotFinal() > 0) {
            violations.add(NOT_FINAL + carts.cartsNotFinal() + " carts not decided yet");
        }
        if (carts.cartsPaidMoreThanOnce() > 0) {
            violations.add("double payment: " + carts.cartsPaidMoreThanOnce() + " carts paid more than once");
        }
        if (carts.paymentsWithoutCompletion() > 0) {
            violations.add(
                    "half-done checkout: " + carts.paymentsWithoutCompletion() + " payments on carts not completed");
        }
        if (carts.cartsPaidMoreThanOnce() == 0
                && carts.paymentsWithoutCompletion() == 0
                && carts.payments() != carts.completedCarts()) {
            violations.add(
                    "unpaid: " + carts.completedCarts() + " completed carts but " + carts.payments() + " payments");
        }
    }
}
