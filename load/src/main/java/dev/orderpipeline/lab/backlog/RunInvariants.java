package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.InvariantReport;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.ToLongFunction;
import javax.sql.DataSource;

/**
 * The verdict of {@link InvariantChecker} over a run's products, summed up: how many violate an invariant, the
 * totals a report shows, and the first few violations in words.
 */
public final class RunInvariants {

    private RunInvariants() {}

    /**
     * The verdict over a run's products: order, unit and stock totals over all of them, and the first few violations
     * in words, with their product.
     *
     * @param notFinal orders still CREATED or PROCESSING
     * @param drift sum over products of stock left + units sold - initial stock
     */
    public record Summary(
            int products,
            int productsViolating,
            long completed,
            long rejected,
            long notFinal,
            long unitsSold,
            long stockLeft,
            long initialStock,
            long drift,
            int oversoldProducts,
            long doublePayments,
            long paymentsWithoutCompletion,
            long payments,
            List<String> violations) {

        public Summary {
            violations = List.copyOf(violations);
        }

        public boolean holds() {
            return productsViolating == 0;
        }

        /** Empty when the invariants hold, else the violations, to end a progress note with. */
        public String violatedNote() {
            return holds() ? "" : "  VIOLATED: " + violations;
        }
    }

    /** Checks every product of {@code initialStock} against the stock it started with. */
    public static Summary check(DataSource dataSource, Map<UUID, Integer> initialStock) {
        var reports = new InvariantChecker(dataSource).check(initialStock);
        var violating = reports.stream().filter(report -> !report.holds()).toList();
        return new Summary(
                reports.size(),
                violating.size(),
                sum(reports, InvariantReport::completedOrders),
                sum(reports, InvariantReport::rejectedOrders),
                sum(reports, InvariantReport::ordersNotFinal),
                sum(reports, InvariantReport::completedQuantity),
                sum(reports, InvariantReport::stockLeft),
                sum(reports, InvariantReport::initialStock),
                sum(reports, InvariantReport::drift),
                (int) reports.stream().filter(InvariantReport::oversold).count(),
                sum(reports, InvariantReport::ordersPaidMoreThanOnce),
                sum(reports, InvariantReport::paymentsWithoutCompletion),
                sum(reports, InvariantReport::payments),
                violating.stream()
                        .limit(5)
                        .map(report -> report.productId() + ": " + String.join("; ", report.violations()))
                        .toList());
    }

    private static long sum(List<InvariantReport> reports, ToLongFunction<InvariantReport> figure) {
        return reports.stream().mapToLong(figure).sum();
    }
}
