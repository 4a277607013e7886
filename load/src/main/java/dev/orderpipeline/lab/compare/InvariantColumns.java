package dev.orderpipeline.lab.compare;

import dev.orderpipeline.invariants.CartInvariants;
import dev.orderpipeline.invariants.InvariantReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * The invariant columns of a compare table, taken from the database's {@link InvariantReport}s of the run's products
 * and nothing else: never from what the clients were told.
 *
 * @param completed orders (or carts) completed
 * @param completedQuantity units sold: by completed orders, on SOLD cart lines
 * @param stockLeft over the run's products, as {@code initialStock}
 * @param drift stock left + units sold (+ held by carts) - initial stock (positive: decrements lost)
 * @param notFinal orders (or carts) checked out (answered 2xx) and still CREATED or PROCESSING
 * @param notCheckedOut orders whose checkout was refused (sold out at the door, shed) or not answered: they stay
 *     CREATED by design, so the database alone cannot tell them from orders accepted and never decided
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
        @Nullable Long notCheckedOut,
        boolean holds,
        List<String> violations) {

    private static final String NOT_FINAL = "not final:";
    private static final String ORDERS_OPEN = "orders not decided yet";

    public InvariantColumns {
        // reports written before the column have none: every order of theirs counts as not final
        notCheckedOut = notCheckedOut == null ? 0 : notCheckedOut;
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        violations = List.copyOf(violations);
    }

    public static InvariantColumns from(InvariantReport report) {
        return from(List.of(report), 1, 0);
    }

    /** The columns of a run on several products in which every checkout was accepted. */
    public static InvariantColumns from(List<InvariantReport> reports, int lines) {
        return from(reports, lines, 0);
    }

    /** The columns of {@code report} for a run in which {@code notCheckedOut} orders were never accepted. */
    public static InvariantColumns from(InvariantReport report, long notCheckedOut) {
        return from(List.of(report), 1, notCheckedOut);
    }

    /**
     * The columns of a run on several products, summed. Every cart of the run holds one line of {@code lines} of its
     * products, so each product's report counts it once: the carts' counts are divided by {@code lines}. Of the
     * orders still open, {@code notCheckedOut} were never accepted; every one beyond those was accepted and not
     * decided, a violation.
     */
    public static InvariantColumns from(List<InvariantReport> reports, int lines, long notCheckedOut) {
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
            for (var violation : reports.get(index).violations()) {
                if (!(violation.startsWith(NOT_FINAL) && violation.endsWith(ORDERS_OPEN))) {
                    violations.add(prefix + violation);
                }
            }
        }
        var open = sum.applyAsLong(InvariantReport::ordersNotFinal) + carts.applyAsLong(CartInvariants::cartsNotFinal);
        var notFinal = Math.max(0, open - notCheckedOut);
        if (sum.applyAsLong(InvariantReport::ordersNotFinal) > notCheckedOut) {
            violations.add(NOT_FINAL + " " + (sum.applyAsLong(InvariantReport::ordersNotFinal) - notCheckedOut)
                    + " orders checked out and not decided yet");
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
                notFinal,
                Math.min(notCheckedOut, open),
                violations.isEmpty(),
                violations);
    }
}
