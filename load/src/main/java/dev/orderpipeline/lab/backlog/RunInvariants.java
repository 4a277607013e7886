package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.invariants.InvariantChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The verdict of {@link InvariantChecker} over a run's products, summed up: how many violate an invariant, the
 * totals a report shows, and the first few violations in words.
 */
public final class RunInvariants {

    private RunInvariants() {}

    /**
     * The verdict over a run's products.
     *
     * @param products products checked
     * @param productsViolating products for which some invariant does not hold
     * @param completed orders COMPLETED
     * @param rejected orders REJECTED
     * @param notFinal orders still CREATED or PROCESSING
     * @param unitsSold units the completed orders took
     * @param stockLeft stock of all products together
     * @param initialStock the stock they started with together
     * @param drift sum over products of stock left + units sold - initial stock
     * @param oversoldProducts products that sold more than they had
     * @param doublePayments orders paid more than once
     * @param paymentsWithoutCompletion payments on orders not COMPLETED
     * @param payments payment rows
     * @param violations the first few violations, in words, with their product
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
    }

    /** Checks every product of {@code initialStock} against the stock it started with. */
    public static Summary check(DataSource dataSource, Map<UUID, Integer> initialStock) {
        var reports = new InvariantChecker(dataSource).check(initialStock);
        long completed = 0;
        long rejected = 0;
        long notFinal = 0;
        long sold = 0;
        long left = 0;
        long initial = 0;
        long drift = 0;
        long twice = 0;
        long dangling = 0;
        long payments = 0;
        var violating = 0;
        var oversold = 0;
        var violations = new ArrayList<String>();
        for (var report : reports) {
            completed += report.completedOrders();
            rejected += report.rejectedOrders();
            notFinal += report.ordersNotFinal();
            sold += report.completedQuantity();
            left += report.stockLeft();
            initial += report.initialStock();
            drift += report.drift();
            twice += report.ordersPaidMoreThanOnce();
            dangling += report.paymentsWithoutCompletion();
            payments += report.payments();
            if (report.oversold()) {
                oversold++;
            }
            if (!report.holds()) {
                violating++;
                if (violations.size() < 5) {
                    violations.add(report.productId() + ": " + String.join("; ", report.violations()));
                }
            }
        }
        return new Summary(
                reports.size(),
                violating,
                completed,
                rejected,
                notFinal,
                sold,
                left,
                initial,
                drift,
                oversold,
                twice,
                dangling,
                payments,
                violations);
    }
}
