package dev.orderpipeline.lab.compare;

import dev.orderpipeline.invariants.RunVerdict;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The invariant columns of a compare table: the invariants module's {@link RunVerdict} on the run's products, as the
 * report keeps it, and nothing else: never from what the clients were told.
 * Each figure is the one of that name on {@link RunVerdict}; {@code notCheckedOut} is null in reports written before
 * the column.
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

    public InvariantColumns {
        // reports written before the column have none: every order of theirs counts as not final
        notCheckedOut = notCheckedOut == null ? 0 : notCheckedOut;
        rejectionsByReason = Map.copyOf(rejectionsByReason);
        violations = List.copyOf(violations);
    }

    /** The columns of the invariants module's verdict on the run. */
    public static InvariantColumns from(RunVerdict verdict) {
        return new InvariantColumns(
                verdict.oversold(),
                verdict.completed(),
                verdict.completedQuantity(),
                verdict.rejected(),
                verdict.rejectionsByReason(),
                (int) verdict.stockLeft(),
                (int) verdict.initialStock(),
                verdict.drift(),
                verdict.doublePayments(),
                verdict.paymentsWithoutCompletion(),
                verdict.payments(),
                verdict.notFinal(),
                verdict.notCheckedOut(),
                verdict.holds(),
                verdict.violations());
    }
}
