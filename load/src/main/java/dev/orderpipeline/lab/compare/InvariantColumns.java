package dev.orderpipeline.lab.compare;

import dev.orderpipeline.invariants.InvariantReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The invariant columns of a compare table, taken from the database's {@link InvariantReport} and nothing else:
 * never from what the clients were told.
 *
 * @param drift stock left + units sold - initial stock (positive: decrements lost)
 * @param notFinal orders checked out (answered 2xx) and still CREATED or PROCESSING
 * @param notCheckedOut orders whose checkout was refused (a sold-out or shed answer) or not answered: they stay
 *     CREATED by design, so the database alone cannot tell them from orders accepted and never decided
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
        long notCheckedOut,
        boolean holds,
        List<String> violations) {

    private static final String NOT_FINAL = "not final:";
    private static final String ORDERS_OPEN = "orders not decided yet";

    public InvariantColumns {
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        violations = List.copyOf(violations);
    }

    public static InvariantColumns from(InvariantReport report) {
        return from(report, 0);
    }

    /**
     * The columns of {@code report} for a run in which {@code notCheckedOut} orders were never accepted: every order
     * the database has still open beyond those is one accepted and not decided, a violation.
     */
    public static InvariantColumns from(InvariantReport report, long notCheckedOut) {
        var notFinal = Math.max(0, report.ordersNotFinal() - notCheckedOut);
        var violations = new ArrayList<String>();
        for (var violation : report.violations()) {
            if (!(violation.startsWith(NOT_FINAL) && violation.endsWith(ORDERS_OPEN))) {
                violations.add(violation);
            }
        }
        if (notFinal > 0) {
            violations.add(NOT_FINAL + " " + notFinal + " orders checked out and not decided yet");
        }
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
                notFinal,
                Math.min(notCheckedOut, report.ordersNotFinal()),
                violations.isEmpty(),
                violations);
    }
}
