package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.CartInvariants;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The carts workload's report: its books summed over the run's products, its carts counted once, its locks. */
class CartsReportTests {

    private static final int LINES = 2;

    @TempDir
    Path folder;

    private final CompareReport report = CompareFixtures.report(
            new CompareSettings(
                    100,
                    300,
                    CompareExperiment.CART_STRATEGIES,
                    1,
                    null,
                    Duration.ofMinutes(2),
                    0,
                    new CompareSettings.Carts(3, LINES)),
            new SkippedStrategy("cart-optimistic", Strategies.UNKNOWN),
            run(CompareExperiment.SAGA, 229.0, null, 0, exact()),
            run("cart-for-update", 310.5, 0L, 0, exact()),
            run("cart-for-update-unsorted", 88.2, 41L, 41, leaking()));

    /** Books that hold: 300 units, 150 sold, 150 left, 75 carts completed and 225 rejected, each counted on 2 products. */
    static List<InvariantReport> exact() {
        return List.of(
                product(100, 0, 100, 0, 100, 100, List.of()),
                product(100, 50, 50, 0, 50, 150, List.of()),
                product(100, 100, 0, 0, 0, 200, List.of()));
    }

    /** Books that do not: the second product has 2 units held by rejected carts whose release never came. */
    static List<InvariantReport> leaking() {
        return List.of(
                product(100, 2, 98, 0, 98, 100, List.of()), product(100, 0, 98, 2, 98, 104, List.of("rejected")));
    }

    /** A product's report; {@code rejectedHolding} carts keep a line: they hold {@code held} units once all is final. */
    private static InvariantReport product(
            int initial, int stockLeft, long sold, long held, long completed, long rejected, List<String> holding) {
        var carts = new CartInvariants(sold, held, completed, rejected, 0, 0, holding.size(), completed, 0, 0);
        return new InvariantReport(UUID.randomUUID(), initial, stockLeft, 0, 0, 0, Map.of(), 0, 0, 0, 0, carts);
    }

    private static StrategyRun run(
            String strategy, double perSecond, @Nullable Long aborted, long deadlocks, List<InvariantReport> books) {
        var saga = strategy.equals(CompareExperiment.SAGA);
        var toDecision = new Latency(300, 350, 800, 1_250, 1_310);
        var toAnswer = saga ? new Latency(300, 55, 100, 140, 151) : toDecision;
        var resources = new ResourceUsage(List.of(), new ResourceUsage.DatabaseUsage(3.56, 0.75, 1L));
        var verdict = RunVerdict.of(books, LINES, 0);
        return new StrategyRun(
                strategy,
                strategy,
                books.stream().map(InvariantReport::productId).toList(),
                verdict,
                1.31,
                perSecond,
                toAnswer,
                toDecision,
                saga ? 0L : null,
                false,
                Map.of(saga ? "202" : "200", 300L),
                resources,
                null,
                new StrategyRun.CartFigures(aborted, deadlocks));
    }

    @Test
    void sumsTheBooksOfTheRunsProductsCountsEachCartOnceAndNamesEachViolationsProduct() {
        var leaking = RunVerdict.of(leaking(), LINES, 0);

        assertThat(leaking.initialStock()).isEqualTo(200);
        assertThat(leaking.completedQuantity()).isEqualTo(196);
        assertThat(leaking.stockLeft()).isEqualTo(2);
        assertThat(leaking.completed()).isEqualTo(98);
        assertThat(leaking.rejected()).isEqualTo(102);
        // 2 + 98 + 0 = 100 and 0 + 98 + 2 = 100: held units are on the books, so none drifts
        assertThat(leaking.drift()).isZero();
        assertThat(leaking.holds()).isFalse();
        assertThat(leaking.violations())
                .hasSize(2)
                .allSatisfy(violation -> assertThat(violation).startsWith("product 2: "));
        var exact = RunVerdict.of(exact(), LINES, 0);
        assertThat(exact.holds()).isTrue();
        assertThat(exact.completed()).isEqualTo(75);
        assertThat(exact.rejected()).isEqualTo(225);
    }

    @Test
    void countsAProductWhoseUnitsDoNotAddUpAsOff() {
        var books = product(100, 5, 98, 0, 98, 0, List.of());
        var run = run("cart-for-update", 1.0, 0L, 0, List.of(books));

        assertThat(books.drift()).isEqualTo(3);
        assertThat(run.invariants().productsDrifting()).isEqualTo(1);
        assertThat(run.invariants().drift()).isEqualTo(3);
    }

    @Test
    void writesTheCartsColumnsTheAbortTableAndTheirCharts() throws Exception {
        ReportWriter.write(report, folder);

        var markdown = Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE));

        assertThat(ReportWriter.JSON.readValue(
                        folder.resolve(ReportWriter.JSON_FILE).toFile(), CompareReport.class))
                .isEqualTo(report);
        assertThat(Files.readString(folder.resolve(ReportWriter.JSON_FILE)))
                .contains("\"decidedPerSecond\" : 88.2", "\"abortedTransactions\" : 41", "\"heldAfterAllFinal\" : 2");
        assertThat(markdown)
                .contains("3 fresh products with 100 units each, 300 buyers with a cart of 2 of them")
                .contains(
                        "| Strategy | Oversell? | Completed | Rejected | Stock left | Drift | Double payments | Not final"
                                + " | Not checked out | Units sold | Held | Held once final | Products off | Verdict |")
                .contains("| saga | no | 75 | 225 | 150 | 0 | 0 | 0 | 0 | 150 | 0 | 0 | 0 | hold |")
                .contains(
                        "| cart-for-update-unsorted | no | 98 | 102 | 2 | 0 | 0 | 0 | 0 | 196 | 2 | 2 | 0 | product 2:")
                .contains("| cart-for-update | 1.31 | 310.5 | 200×300 | - |")
                .contains("| saga | n/a | 0 |")
                .contains("| cart-for-update-unsorted | 41 | 41 |")
                .contains("| cart-optimistic | order-api does not know it");
        var images = Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)")
                .matcher(markdown)
                .results()
                .map(match -> match.group(1))
                .toList();
        assertThat(images)
                .contains("final-latency.png", "aborted-transactions.png", "invariants.png")
                .allSatisfy(png ->
                        assertThat(Files.readAllBytes(folder.resolve(png))).startsWith(0x89, 'P', 'N', 'G'));
    }

    @Test
    void leavesAStrategyWithoutAnAbortCountOutOfThatSeriesInsteadOfDrawingZero() {
        var aborted = report.charts().stream()
                .filter(chart -> chart.file().equals("aborted-transactions"))
                .map(Chart.Bars.class::cast)
                .findFirst()
                .orElseThrow();

        assertThat(aborted.values().get("aborted and retried (order-api)"))
                .containsOnlyKeys("cart-for-update", "cart-for-update-unsorted");
        // the series with every strategy comes first, so the strategies keep the run's order along the axis
        assertThat(aborted.values().keySet().iterator().next()).isEqualTo("deadlocks (PostgreSQL)");
        assertThat(aborted.values().get("deadlocks (PostgreSQL)")).containsOnlyKeys(CompareExperiment.CART_STRATEGIES);
    }

    @Test
    void anOrdersReportHasNoCartsSection() {
        var orders = CompareFixtures.report(CompareFixtures.run("kafka", CompareFixtures.columns(exact().getFirst())));

        assertThat(orders.tables()).noneMatch(table -> table.title().equals("Aborted transactions"));
        assertThat(orders.invariantTable().columns()).doesNotContain("Held");
        assertThat(orders.charts()).noneMatch(chart -> chart.file().equals("aborted-transactions"));
    }
}
