package dev.orderpipeline.invariants;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * The verdict on a run over all its products, from their {@link InvariantReport}s: the figures summed, each cart
 * counted once, and the violations in words. Every report of a run, of one product or of ten thousand, is read
 * through this.
 *
 * @param productsViolating products of which an invariant does not hold
 * @param completed orders and carts completed
 * @param completedQuantity units sold: by completed orders, on SOLD cart lines
 * @param rejected orders and carts rejected
 * @param rejectionsByReason single-product orders rejected, by reason
 * @param drift stock left + units sold + units held by carts - initial stock (positive: decrements lost)
 * @param doublePayments orders and carts paid more than once
 * @param paymentsWithoutCompletion payments of orders and carts not completed
 * @param held units held by carts (RESERVED and RELEASING lines)
 * @param heldAfterAllFinal units held by carts of products whose orders are all final: a release that never came
 * @param notFinal orders and carts open beyond those never checked out: accepted and not decided
 * @param notCheckedOut open orders whose checkout was refused (sold out at the door, shed) or not answered: they stay
 *     CREATED by design, so the database alone cannot tell them from orders accepted and never decided
 * @param violations the invariants that do not hold, in words, named by product (product 1, 2... in the order
 *     checked) on a run of several
 */
public record RunVerdict(
        int products,
        int productsViolating,
        int oversoldProducts,
        int productsDrifting,
        long completed,
        long completedQuantity,
        long rejected,
        Map<String, Long> rejectionsByReason,
        long stockLeft,
        long initialStock,
        long drift,
        long doublePayments,
        long paymentsWithoutCompletion,
        long payments,
        long held,
        long heldAfterAllFinal,
        long notFinal,
        long notCheckedOut,
        List<String> violations) {

    public RunVerdict {
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        violations = List.copyOf(violations);
    }

    /** The verdict on a run in which every order was checked out and no cart has more than one line. */
    public static RunVerdict of(List<InvariantReport> reports) {
        return of(reports, 1, 0);
    }

    /**
     * The verdict on a run whose every cart holds {@code linesPerCart} of its products, each of them on a line of its
     * own: each product's report counts the cart once, so the carts' counts are divided by {@code linesPerCart}. Of
     * the orders still open, {@code ordersNeverAccepted} were never checked out, taken from the products in the order
     * of the reports (exact when the run's orders are all of one product); every open order beyond those is a
     * violation.
     */
    public static RunVerdict of(List<InvariantReport> reports, int linesPerCart, long ordersNeverAccepted) {
        if (linesPerCart < 1 || ordersNeverAccepted < 0) {
            throw new IllegalArgumentException("linesPerCart must be positive and ordersNeverAccepted not negative");
        }
        ToLongFunction<ToLongFunction<InvariantReport>> sum =
                figure -> reports.stream().mapToLong(figure).sum();
        ToLongFunction<ToLongFunction<CartInvariants>> carts =
                figure -> sum.applyAsLong(report -> figure.applyAsLong(report.carts())) / linesPerCart;
        var reasons = new TreeMap<String, Long>();
        var violations = new ArrayList<String>();
        var violating = 0;
        var unaccounted = ordersNeverAccepted;
        for (var index = 0; index < reports.size(); index++) {
            var report = reports.get(index);
            report.rejectionsByReason().forEach((reason, count) -> reasons.merge(reason, count, Long::sum));
            var neverAccepted = Math.min(unaccounted, report.ordersNotFinal());
            unaccounted -= neverAccepted;
            var own = report.violations(neverAccepted);
            violating += own.isEmpty() ? 0 : 1;
            var prefix = reports.size() == 1 ? "" : "product " + (index + 1) + ": ";
            own.forEach(violation -> violations.add(prefix + violation));
        }
        var open = sum.applyAsLong(InvariantReport::ordersNotFinal) + carts.applyAsLong(CartInvariants::cartsNotFinal);
        return new RunVerdict(
                reports.size(),
                violating,
                (int) reports.stream().filter(InvariantReport::oversold).count(),
                (int) reports.stream().filter(report -> report.drift() != 0).count(),
                sum.applyAsLong(InvariantReport::completedOrders) + carts.applyAsLong(CartInvariants::completedCarts),
                sum.applyAsLong(InvariantReport::soldQuantity),
                sum.applyAsLong(InvariantReport::rejectedOrders) + carts.applyAsLong(CartInvariants::rejectedCarts),
                reasons,
                sum.applyAsLong(InvariantReport::stockLeft),
                sum.applyAsLong(InvariantReport::initialStock),
                sum.applyAsLong(InvariantReport::drift),
                sum.applyAsLong(InvariantReport::doublePayments)
                        + carts.applyAsLong(CartInvariants::cartsPaidMoreThanOnce),
                sum.applyAsLong(InvariantReport::paymentsWithoutCompletion)
                        + carts.applyAsLong(CartInvariants::paymentsWithoutCompletion),
                sum.applyAsLong(InvariantReport::payments) + carts.applyAsLong(CartInvariants::payments),
                sum.applyAsLong(report -> report.carts().heldQuantity()),
                sum.applyAsLong(InvariantReport::heldAfterAllFinal),
                Math.max(0, open - ordersNeverAccepted),
                Math.min(ordersNeverAccepted, open),
                violations);
    }

    /** Every invariant holds on every product, open orders never checked out aside. */
    public boolean holds() {
        return violations.isEmpty();
    }

    /**
     * No invariant of safety is broken: whatever is still open, nothing was oversold, lost, charged twice or charged
     * without a sale. A run past the pipeline's capacity leaves orders open when the lab stops waiting; that is its
     * finding, not a failure.
     */
    public boolean safe() {
        return violations.stream().allMatch(violation -> violation.contains(InvariantReport.NOT_FINAL));
    }

    public boolean oversold() {
        return oversoldProducts > 0;
    }
}
