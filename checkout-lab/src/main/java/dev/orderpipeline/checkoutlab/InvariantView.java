package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.invariants.InvariantReport;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An {@link InvariantReport} as JSON: its components and what it derives from them, so that a client judges a run
 * by the same rules as the tests.
 */
record InvariantView(
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
        boolean oversold,
        long drift,
        long doublePayments,
        boolean holds,
        List<String> violations) {

    InvariantView {
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        violations = List.copyOf(violations);
    }

    static InvariantView of(InvariantReport report) {
        return new InvariantView(
                report.productId(),
                report.initialStock(),
                report.stockLeft(),
                report.completedOrders(),
                report.completedQuantity(),
                report.rejectedOrders(),
                report.rejectionsByReason(),
                report.ordersNotFinal(),
                report.payments(),
                report.ordersPaidMoreThanOnce(),
                report.paymentsWithoutCompletion(),
                report.oversold(),
                report.drift(),
                report.doublePayments(),
                report.holds(),
                report.violations());
    }
}
