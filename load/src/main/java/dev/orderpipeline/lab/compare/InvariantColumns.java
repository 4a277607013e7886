package dev.orderpipeline.lab.compare;

import dev.orderpipeline.invariants.InvariantReport;
import java.util.List;
import java.util.Map;

/**
 * The invariant columns of a compare table, taken from the database's {@link InvariantReport} and nothing else:
 * never from what the clients were told.
 *
 * @param drift stock left + units sold - initial stock (positive: decrements lost)
 * @param notFinal orders still CREATED or PROCESSING
 * @param violations the invariants that do not hold, in words
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
        return new InvariantColumns(
                report.oversold(),
                report.completedOrders(),
                report.completedQuantity(),
                report.rejectedOrders(),
                report.rejectionsByReason(),
                report.stockLeft(),
                report.initialStock(),
                report.drift(),
                report.doublePayments(),
                report.paymentsWithoutCompletion(),
                report.payments(),
                report.ordersNotFinal(),
                report.holds(),
                report.violations());
    }
}
