package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.RunVerdict;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The invariants module's {@link RunVerdict} over a run's products in the shape the backlog reports keep: how many
 * violate an invariant, the totals a report shows, and the first few violations in words.
 */
public final class RunInvariants {

    private RunInvariants() {}

    /**
     * The verdict over a run's products: order, unit and stock totals over all of them, and the first few violations
     * in words, with their product; each figure is {@link RunVerdict}'s of that name ({@code unitsSold} its
     * {@code completedQuantity}).
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

    /** The invariants module's verdict on every product of {@code initialStock}, with its first few violations. */
    public static Summary check(DataSource dataSource, Map<UUID, Integer> initialStock) {
        var verdict = new InvariantChecker(dataSource).verdict(initialStock);
        return new Summary(
                verdict.products(),
                verdict.productsViolating(),
                verdict.completed(),
                verdict.rejected(),
                verdict.notFinal(),
                verdict.completedQuantity(),
                verdict.stockLeft(),
                verdict.initialStock(),
                verdict.drift(),
                verdict.oversoldProducts(),
                verdict.doublePayments(),
                verdict.paymentsWithoutCompletion(),
                verdict.payments(),
                verdict.violations().stream().limit(5).toList());
    }
}
