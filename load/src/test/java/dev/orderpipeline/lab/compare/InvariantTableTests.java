package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.invariants.RunVerdict;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The article's three outcomes, as the compare table shows them. */
class InvariantTableTests {

    @Test
    void naiveWithMoreBuyersThanUnitsShowsOversellAndDrift() {
        // INITIAL_STOCK=100, PARALLEL=300: completed=300 stock=99
        var columns = CompareFixtures.columns(report(100, 99, 300, 0, 300, 0));

        assertThat(columns.oversold()).isTrue();
        assertThat(columns.completed()).isEqualTo(300);
        assertThat(columns.stockLeft()).isEqualTo(99);
        assertThat(columns.drift()).isEqualTo(299);
        assertThat(columns.holds()).isFalse();
        assertThat(columns.violations()).anyMatch(violation -> violation.startsWith("oversell"));
    }

    @Test
    void lostUpdatesWithoutOversellStillShowAsDrift() {
        // PARALLEL=100: completed=100 stock=98, the assert "completed <= initial" is green, the books are not
        var columns = CompareFixtures.columns(report(100, 98, 100, 0, 100, 0));

        assertThat(columns.oversold()).isFalse();
        assertThat(columns.drift()).isEqualTo(98);
        assertThat(columns.holds()).isFalse();
    }

    @Test
    void aCorrectStrategySellsExactlyTheStock() {
        var columns = CompareFixtures.columns(report(100, 0, 100, 200, 100, 0));

        assertThat(columns.oversold()).isFalse();
        assertThat(columns.completed()).isEqualTo(100);
        assertThat(columns.rejected()).isEqualTo(200);
        assertThat(columns.stockLeft()).isZero();
        assertThat(columns.drift()).isZero();
        assertThat(columns.doublePayments()).isZero();
        assertThat(columns.notFinal()).isZero();
        assertThat(columns.holds()).isTrue();
        assertThat(columns.violations()).isEmpty();
    }

    @Test
    void ordersRefusedAtTheDoorAreNotCheckedOutButAnOpenAcceptedOneIsAViolation() {
        // a flash sale: 100 sold, 20 rejected by the worker, 880 told sold-out at the door and left CREATED
        var refused = withOpenOrders(report(100, 0, 100, 20, 100, 0), 880);

        var allRefused = RunVerdict.of(List.of(refused), 1, 880);
        assertThat(allRefused.notFinal()).isZero();
        assertThat(allRefused.notCheckedOut()).isEqualTo(880);
        assertThat(allRefused.holds()).isTrue();

        var oneAcceptedOpen = RunVerdict.of(List.of(refused), 1, 879);
        assertThat(oneAcceptedOpen.notFinal()).isEqualTo(1);
        assertThat(oneAcceptedOpen.holds()).isFalse();
        assertThat(oneAcceptedOpen.violations()).containsExactly("not final: 1 orders checked out and not decided yet");
    }

    @Test
    void countsOrdersPaidTwice() {
        var columns = CompareFixtures.columns(report(10, 0, 10, 0, 12, 2));

        assertThat(columns.doublePayments()).isEqualTo(2);
        assertThat(columns.payments()).isEqualTo(12);
        assertThat(columns.holds()).isFalse();
    }

    @Test
    void theTableShowsTheColumnsAsTheArticleDoes() {
        var run = CompareFixtures.run("naive", CompareFixtures.columns(report(100, 99, 300, 0, 300, 0)));
        var report = CompareFixtures.report(run);

        var table = report.invariantTable();

        assertThat(table.columns())
                .startsWith("Strategy", "Oversell?", "Completed", "Rejected", "Stock left", "Drift", "Double payments");
        assertThat(table.rows().getFirst()).startsWith("naive", "yes", "300", "0", "99", "299", "0");
    }

    private static InvariantReport withOpenOrders(InvariantReport report, long open) {
        return new InvariantReport(
                report.productId(),
                report.initialStock(),
                report.stockLeft(),
                report.completedOrders(),
                report.completedQuantity(),
                report.rejectedOrders(),
                report.rejectionsByReason(),
                open,
                report.payments(),
                report.ordersPaidMoreThanOnce(),
                report.paymentsWithoutCompletion(),
                report.carts());
    }

    private static InvariantReport report(
            int initial, int stockLeft, long completed, long rejected, long payments, long paidTwice) {
        return new InvariantReport(
                UUID.randomUUID(),
                initial,
                stockLeft,
                completed,
                completed,
                rejected,
                rejected == 0 ? Map.of() : Map.of("INSUFFICIENT_STOCK", rejected),
                0,
                payments,
                paidTwice,
                0);
    }
}
