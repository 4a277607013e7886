package dev.orderpipeline.lab.carts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.carts.CartInvariants.ProductBooks;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.SharedLabStack;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small carts compare from the packaged jars, end to end: the stack as processes with the lab on, 12 carts of 2
 * of 3 products with 6 units each, every strategy; the report written to disk must say what the database says.
 *
 * <p>Twelve carts, not more: the unsorted strategy's deadlocks cost a {@code deadlock_timeout} each and grow faster
 * than the carts (24 carts took 130 deadlocks and 55 s on a quiet machine, past the final timeout on a loaded one,
 * where the report then read a cart the server decided later).
 */
@ExtendWith(SharedLabStack.class)
class CartsEndToEndTests {

    private static final int PRODUCTS = 3;

    private static final int INITIAL_STOCK = 6;
    private static final int CARTS = 12;
    private static final int LINES = 2;

    @TempDir
    Path output;

    @Test
    void decidesEveryCartOfEveryStrategyAndReportsWhatTheDatabaseHolds(SharedLabStack.Lab lab) throws Exception {
        var stack = lab.stack();
        var target = lab.target();
        var startedAt = Instant.now();
        var settings = new CartsSettings(
                PRODUCTS, INITIAL_STOCK, CARTS, LINES, 1, CartStrategies.ALL, Duration.ofSeconds(120), 0);

        CartsReport report;
        try (var results = ResultsListener.start(target.bootstrapServers(), Duration.ofSeconds(60))) {
            var outcome = new CartsExperiment(target, settings, Progress.silent(), results).run();

            var header = lab.header("carts", startedAt);
            report = new CartsReport(header, settings, outcome.runs(), outcome.skipped());
            ReportWriter.write(report, output);

            assertThat(outcome.skipped()).isEmpty();
            assertThat(outcome.runs()).extracting(CartRun::strategy).containsExactlyElementsOf(CartStrategies.ALL);
        }

        var written = ReportWriter.JSON.readValue(
                output.resolve(ReportWriter.JSON_FILE).toFile(), CartsReport.class);
        assertThat(written).isEqualTo(report);
        var database = stack.dataSource();
        var checker = new InvariantChecker(database);
        for (var run : written.runs()) {
            // a run that timed out read its books while the server was still deciding: nothing below would be judged
            assertThat(run.finalTimedOut())
                    .as("%s: carts still open after the final timeout", run.strategy())
                    .isFalse();
            var invariants = run.invariants();
            assertThat(invariants.products()).hasSize(PRODUCTS);
            for (var books : invariants.products()) {
                var truth = checker.check(books.productId(), INITIAL_STOCK);
                assertThat(books.stockLeft()).as(run.strategy() + " stock left").isEqualTo(truth.stockLeft());
                assertThat(books.sold()).as(run.strategy() + " sold").isEqualTo(truth.soldQuantity());
                assertThat(books.drift()).as(run.strategy() + " drift").isZero();
            }
            var outcomes = invariants.outcomes();
            // a completed cart sold one unit of each of its lines, and nothing else was sold or is held
            assertThat(invariants.sum(ProductBooks::sold)).as(run.strategy()).isEqualTo(outcomes.completed() * LINES);
            assertThat(invariants.sum(ProductBooks::held)).as(run.strategy()).isZero();
            assertThat(run.burst().carts()).isEqualTo(CARTS);
            assertThat(run.burst().decided()).as(run.strategy()).isEqualTo(outcomes.completed() + outcomes.rejected());
            assertThat(run.decisionsMissing()).isZero();
            assertThat(run.deadlocks()).isNotNull();
        }
        var saga = written.runs().getFirst();
        var sorted = written.runs().get(1);
        for (var run : List.of(saga, sorted)) {
            assertThat(run.invariants().holds())
                    .as(run.strategy() + ": " + run.invariants().violations())
                    .isTrue();
            assertThat(run.burst().decided()).as(run.strategy()).isEqualTo(CARTS);
            // one lock order everywhere: neither the saga nor the sorted strategy can deadlock
            assertThat(run.deadlocks()).as(run.strategy()).isZero();
        }
        assertThat(saga.burst().httpStatuses()).containsEntry("202", (long) CARTS);
        assertThat(saga.abortedTransactions()).isNull();
        assertThat(sorted.burst().httpStatuses()).containsEntry("200", (long) CARTS);
        assertThat(sorted.abortedTransactions()).isZero();
        var unsorted = written.runs().get(2);
        // every victim PostgreSQL chose was one of the lab's transactions, counted once
        assertThat(unsorted.abortedTransactions()).isEqualTo(unsorted.deadlocks());
        // deadlocks hold connections for a second each: a checkout that got none failed with an HTTP error and left
        // its cart as it was; one the client gave up on (a timeout) was waited for, and the server decided it
        var failed = unsorted.burst().httpStatuses().entrySet().stream()
                .filter(answer ->
                        answer.getKey().matches("[0-9]+") && !answer.getKey().equals("200"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        assertThat(unsorted.invariants().outcomes().notFinal())
                .as("%s", unsorted.burst().httpStatuses())
                .isEqualTo(failed);
        assertThat(unsorted.invariants().violations())
                .allSatisfy(violation -> assertThat(violation).contains("not final"));

        for (var file : List.of(
                ReportWriter.JSON_FILE,
                ReportWriter.MARKDOWN_FILE,
                ReportWriter.HTML_FILE,
                "throughput.png",
                "decision-latency.png",
                "aborted-transactions.png",
                "outcomes.png",
                "invariants.png")) {
            assertThat(output.resolve(file)).isNotEmptyFile();
        }
    }
}
