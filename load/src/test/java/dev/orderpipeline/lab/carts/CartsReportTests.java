package dev.orderpipeline.lab.carts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.carts.CartInvariants.ProductBooks;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CartsReportTests {

    @TempDir
    Path folder;

    private final CartsReport report = CartsFixtures.report(
            CartsFixtures.run(CartStrategies.SAGA, 229.0, null, 0, CartsFixtures.exact()),
            CartsFixtures.run(CartStrategies.FOR_UPDATE, 310.5, 0L, 0, CartsFixtures.exact()),
            CartsFixtures.run(CartStrategies.FOR_UPDATE_UNSORTED, 88.2, 41L, 41, CartsFixtures.leaking()));

    @Test
    void writesJsonThatReadsBackToTheSameReport() throws Exception {
        ReportWriter.write(report, folder);

        var read = ReportWriter.JSON.readValue(
                folder.resolve(ReportWriter.JSON_FILE).toFile(), CartsReport.class);

        assertThat(read).isEqualTo(report);
        assertThat(Files.readString(folder.resolve(ReportWriter.JSON_FILE)))
                .contains("\"decidedPerSecond\" : 88.2", "\"abortedTransactions\" : 41", "\"heldOnceFinal\" : 2");
    }

    @Test
    void sumsTheBooksOfTheRunsProductsAndNamesEachViolationsProduct() {
        var leaking = CartsFixtures.leaking();

        assertThat(leaking.sum(ProductBooks::initialStock)).isEqualTo(200);
        assertThat(leaking.sum(ProductBooks::sold)).isEqualTo(196);
        assertThat(leaking.sum(ProductBooks::held)).isEqualTo(2);
        assertThat(leaking.sum(ProductBooks::stockLeft)).isEqualTo(2);
        assertThat(leaking.sum(ProductBooks::heldOnceFinal)).isEqualTo(2);
        // 2 + 98 + 0 = 100 and 0 + 98 + 2 = 100: held units are on the books, so none is off
        assertThat(leaking.productsOff()).isZero();
        assertThat(leaking.holds()).isFalse();
        assertThat(leaking.violations())
                .hasSize(2)
                .allSatisfy(violation -> assertThat(violation).startsWith("product 2: "));
        assertThat(CartsFixtures.exact().holds()).isTrue();
    }

    @Test
    void countsAProductWhoseUnitsDoNotAddUpAsOff() {
        var books = new CartInvariants.ProductBooks(UUID.randomUUID(), 100, 5, 98, 0, 0, List.of("drift"));
        var run = new CartInvariants(List.of(books), new CartOutcomes(98, 0, 0, Map.of()));

        assertThat(books.drift()).isEqualTo(3);
        assertThat(run.productsOff()).isEqualTo(1);
    }

    @Test
    void writesATableAndABarChartPerFigure() throws Exception {
        ReportWriter.write(report, folder);

        var markdown = Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE));

        assertThat(markdown)
                .contains("## Invariants (read from the database)")
                .contains("| Strategy | Completed | Rejected | Not final | Units sold | Held | Stock left |")
                .contains("| saga | 75 | 225 | 0 | 150 | 0 | 150 | 0 | 0 | holds |")
                .contains(
                        "| cart-for-update-unsorted | 98 | 202 | 0 | 196 | 2 | 2 | 0 | 2 | product 2: rejected cart holding")
                .contains("| cart-for-update | 300 | 1.31 | 310.5 | 200×300 | 0 |")
                .contains("| saga | 350 ms | 800 ms | 1.25 s | 1.31 s | 55 ms | 140 ms |")
                .contains("| saga | n/a | 0 | INSUFFICIENT_STOCK×225 |")
                .contains("| cart-for-update-unsorted | 41 | 41 | INSUFFICIENT_STOCK×200, RESERVATION_TIMEOUT×2 |")
                .contains("| cart-optimistic | order-api does not know it");
        var images = Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)")
                .matcher(markdown)
                .results()
                .map(match -> match.group(1))
                .toList();
        assertThat(images)
                .containsExactlyInAnyOrder(
                        "throughput.png",
                        "decision-latency.png",
                        "aborted-transactions.png",
                        "outcomes.png",
                        "invariants.png")
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
                .containsOnlyKeys(CartStrategies.FOR_UPDATE, CartStrategies.FOR_UPDATE_UNSORTED);
        // the series with every strategy comes first, so the strategies keep the run's order along the axis
        assertThat(aborted.values().keySet().iterator().next()).isEqualTo("deadlocks (PostgreSQL)");
        assertThat(aborted.values().get("deadlocks (PostgreSQL)")).containsOnlyKeys(CartStrategies.ALL);
    }

    @Test
    void throughputAndLatencyChartsHoldEveryStrategyInRunOrder() {
        var charts = report.charts().stream().map(Chart.Bars.class::cast).toList();

        assertThat(charts.getFirst().values().get("decided carts/s"))
                .containsExactly(
                        java.util.Map.entry(CartStrategies.SAGA, 229.0),
                        java.util.Map.entry(CartStrategies.FOR_UPDATE, 310.5),
                        java.util.Map.entry(CartStrategies.FOR_UPDATE_UNSORTED, 88.2));
        assertThat(charts.get(1).values()).containsOnlyKeys(List.of("p50", "p99"));
        // 229 against 88 carts/s reads on a linear axis; one strategy a hundred times slower would not
        assertThat(charts.getFirst().scale()).isEqualTo(Chart.Scale.AUTO);
        assertThat(charts.getFirst().scale().resolve(List.of(86.0, 72.2, 0.4))).isEqualTo(Chart.Scale.LOG);
    }
}
