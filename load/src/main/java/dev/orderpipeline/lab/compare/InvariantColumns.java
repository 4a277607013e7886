package dev.orderpipeline.lab.compare;

import dev.orderpipeline.invariants.CartInvariants;
import dev.orderpipeline.invariants.InvariantReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * The invariant columns of a compare table, taken from the database's {@link InvariantReport}s of the run's products
 * and nothing else: never from what the clients were told.
 *
 * @param completed orders (or carts) completed
 * @param completedQuantity units sold: by completed orders, on SOLD cart lines
 * @param stockLeft over the run's products, as {@code initialStock}
 * @param drift stock left + units sold (+ held by carts) - initial stock (positive: decrements lost)
 * @param notFinal orders (or carts) still CREATED or PROCESSING
 * @param violations the invariants that do not hold, in words, named by product (product 1, 2...) on a run of several
 */
public record InvariantColumns(
        boolean oversell,
        long completed,
        long completedQuantity,
        long rejected,
        Map<String, Long> rejectionsByReason,
        int stockLeft,
        int initialStock,
        long drift,
        long doublePayments,
        long paymentsWithoutCompletion,
        long payments,
        long notFinal,
        boolean holds,
        List<String> violations) {

    public InvariantColumns {
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        violations = List.copyOf(violations);
    }

    public static InvariantColumns from(InvariantReport report) {
        return from(List.of(report), 1);
    }

    /**
     * The columns of a run on several products, summed. Every cart of the run holds one line of {@code lines} of its
     * products, so each product's report counts it once: the carts' counts are divided by {@code lines}.
     */
    public static InvariantColumns from(List<InvariantReport> reports, int lines) {
        ToLongFunction<ToLongFunction<InvariantReport>> sum =
                figure -> reports.stream().mapToLong(figure).sum();
        ToLongFunction<ToLongFunction<CartInvariants>> carts =
                figure -> sum.applyAsLong(report -> figure.applyAsLong(report.carts())) / lines;
        var reasons = new TreeMap<String, Long>();
        reports.forEach(report ->
                report.rejectionsByReason().forEach((reason, count) -> reasons.merge(reason, count, Long::sum)));
        var violations = new ArrayList<String>();
        for (var index = 0; index < reports.size(); index++) {
            var prefix = reports.size() == 1 ? "" : "product " + (index + 1) + ": ";
            reports.get(index).violations().forEach(violation -> violations.add(prefix + violation));
        }
        return new InvariantColumns(
                reports.stream().anyMatch(InvariantReport::oversold),
                sum.applyAsLong(InvariantReport::completedOrders) + carts.applyAsLong(CartInvariants::completedCarts),
                sum.applyAsLong(InvariantReport::soldQuantity),
                sum.applyAsLong(InvariantReport::rejectedOrders) + carts.applyAsLong(CartInvariants::rejectedCarts),
                reasons,
                (int) sum.applyAsLong(InvariantReport::stockLeft),
                (int) sum.applyAsLong(InvariantReport::initialStock),
                sum.applyAsLong(InvariantReport::drift),
                sum.applyAsLong(InvariantReport::doublePayments)
                        + carts.applyAsLong(CartInvariants::cartsPaidMoreThanOnce),
                sum.applyAsLong(InvariantReport::paymentsWithoutCompletion)
                        + carts.applyAsLong(CartInvariants::paymentsWithoutCompletion),
                sum.applyAsLong(InvariantReport::payments) + carts.applyAsLong(CartInvariants::payments),
                sum.applyAsLong(InvariantReport::ordersNotFinal) + carts.applyAsLong(CartInvariants::cartsNotFinal),
                violations.isEmpty(),
                violations);
    }
}
