package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.lab.measure.StatusCounts;
import dev.orderpipeline.lab.pipeline.OnTheSharedLabStack;
import dev.orderpipeline.lab.pipeline.SharedLabStack;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small compare of the carts workload from the packaged jars, end to end: the stack as processes with the lab on, 12 carts of 2
 * of 3 products with 6 units each, every strategy; the report written to disk must say what the database says.
 *
 * <p>Twelve carts, not more: the unsorted strategy's deadlocks cost a {@code deadlock_timeout} each and grow faster
 * than the carts (24 carts took 130 deadlocks and 55 s on a quiet machine, past the final timeout on a loaded one,
 * where the report then read a cart the server decided later).
 */
@OnTheSharedLabStack
class CartsEndToEndTests {

    private static final int PRODUCTS = 3;

    private static final int INITIAL_STOCK = 6;
    private static final int CARTS = 12;
    private static final int LINES = 2;

    @TempDir
    Path output;

    @Test
    void decidesEveryCartOfEveryStrategyAndReportsWhatTheDatabaseHolds(SharedLabStack.Lab lab) throws Exception {
        var strategies = CompareExperiment.CART_STRATEGIES;
        var settings = new CompareSettings(
                INITIAL_STOCK,
                CARTS,
                strategies,
                1,
                null,
                Duration.ofSeconds(120),
                0,
                new CompareSettings.Carts(PRODUCTS, LINES));

        var written = CompareEndToEndTests.runAndReadBack(lab, settings, output);
        var checker = new InvariantChecker(lab.stack().dataSource());
        for (var run : written.runs()) {
            // a run that timed out read its books while the server was still deciding: nothing below would be judged
            assertThat(run.finalTimedOut())
                    .as("%s: carts still open after the final timeout", run.strategy())
                    .isFalse();
            assertThat(run.productIds()).hasSize(PRODUCTS);
            var stock = new LinkedHashMap<UUID, Integer>();
            run.productIds().forEach(product -> stock.put(product, INITIAL_STOCK));
            var truth = checker.check(stock);
            for (var books : truth) {
                assertThat(books.drift()).as(run.strategy() + " drift").isZero();
            }
            var invariants = run.invariants();
            var carts = run.carts();
            assertThat(carts).isNotNull();
            assertThat(invariants.stockLeft())
                    .as(run.strategy() + " stock left")
                    .isEqualTo(
                            truth.stream().mapToInt(InvariantReport::stockLeft).sum());
            assertThat(invariants.drift()).as(run.strategy() + " drift").isZero();
            // a completed cart sold one unit of each of its lines, and nothing else was sold or is held
            assertThat(invariants.completedQuantity()).as(run.strategy()).isEqualTo(invariants.completed() * LINES);
            assertThat(truth.stream().mapToLong(InvariantReport::soldQuantity).sum())
                    .isEqualTo(invariants.completedQuantity());
            assertThat(invariants.held()).as(run.strategy()).isZero();
            assertThat(run.httpStatuses().values().stream()
                            .mapToLong(Long::longValue)
                            .sum())
                    .isEqualTo(CARTS);
            assertThat(run.resultsMissing()).isIn(null, 0L);
        }
        var saga = written.runs().getFirst();
        var sorted = written.runs().get(1);
        for (var run : List.of(saga, sorted)) {
            assertThat(run.invariants().holds())
                    .as(run.strategy() + ": " + run.invariants().violations())
                    .isTrue();
            assertThat(run.invariants().completed() + run.invariants().rejected())
                    .as(run.strategy())
                    .isEqualTo(CARTS);
            // one lock order everywhere: neither the saga nor the sorted strategy can deadlock
            assertThat(run.carts().deadlocks()).as(run.strategy()).isZero();
        }
        // accepted, or an answer after which the server may still have decided the cart (a busy broker's
        // outcome unknown, a client timeout): the books above were read once every such cart was decided
        assertThat(saga.httpStatuses().keySet())
                .isSubsetOf("202", StatusCounts.OUTCOME_UNKNOWN, StatusCounts.TIMEOUT)
                .contains("202");
        assertThat(saga.finalLatency().count()).isBetween(saga.httpStatuses().get("202"), (long) CARTS);
        assertThat(saga.carts().abortedTransactions()).isNull();
        assertThat(sorted.httpStatuses()).containsEntry("200", (long) CARTS);
        assertThat(sorted.carts().abortedTransactions()).isZero();
        var unsorted = written.runs().get(2);
        // every victim PostgreSQL chose was one of the lab's transactions, counted once
        assertThat(unsorted.carts().abortedTransactions())
                .isEqualTo(unsorted.carts().deadlocks());
        // deadlocks hold connections for a second each: a checkout that got none failed with an HTTP error and left
        // its cart as it was; one the client gave up on (a timeout) was waited for, and the server decided it
        var failed = unsorted.httpStatuses().entrySet().stream()
                .filter(answer ->
                        answer.getKey().matches("[0-9]+") && !answer.getKey().equals("200"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        assertThat(unsorted.invariants().notFinal())
                .as("%s", unsorted.httpStatuses())
                .isEqualTo(failed);
        assertThat(unsorted.invariants().violations())
                .allSatisfy(violation -> assertThat(violation).contains("not final"));

        for (var file : List.of(
                ReportWriter.JSON_FILE,
                ReportWriter.MARKDOWN_FILE,
                "checkout-latency.png",
                "final-latency.png",
                "aborted-transactions.png",
                "invariants.png")) {
            assertThat(output.resolve(file)).isNotEmptyFile();
        }
    }
}
