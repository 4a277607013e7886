package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The article's experiment: 300 buyers, one unit each, press checkout at the same instant on a product with 100
 * units. Every strategy runs with the same 20 ms check-to-write delay (a slow payment call), which makes the naive
 * strategies' race certain instead of likely, and costs the correct ones only time. (The pipeline's checkout of the
 * same race is the worker's to decide: see the production KafkaCheckoutTests, the worker's and the lab runner's.)
 */
class StrategyRaceTests extends LabTestSupport {

    static final int STOCK = 100;
    static final int BUYERS = 300;
    static final String DELAY = "delayMs=20";

    private static final Logger log = LoggerFactory.getLogger(StrategyRaceTests.class);
    private static final Map<String, String> figures = new ConcurrentSkipListMap<>();

    @AfterAll
    static void printFigures() {
        log.info(
                "{} checkouts released together on {} units, per strategy:\n{}",
                BUYERS,
                STOCK,
                String.join("\n", figures.values()));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"app-lock", "db-atomic", "for-update", "optimistic", "serializable", "status-claim"})
    void sellsExactlyTheStockToThreeHundredBuyers(String strategy) {
        var race = race(strategy);

        assertThat(race.statuses()).isEqualTo(Map.of(200, (long) BUYERS));
        assertExact(race.report(), STOCK, BUYERS);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"naive", "naive-tx"})
    void oversellsOrLosesUpdatesWhileEveryResponseIsGreen(String strategy) {
        var race = race(strategy);

        // every client was told its order completed or was rejected: HTTP says nothing about the stock
        assertThat(race.statuses()).isEqualTo(Map.of(200, (long) BUYERS));
        var report = race.report();
        assertThat(report.oversold() || report.drift() != 0)
                .as("oversold or drifted: %s", report)
                .isTrue();
        assertThat(report.holds()).isFalse();
        assertThat(report.ordersNotFinal()).isZero();
    }

    private Race race(String strategy) {
        var productId = createProduct(STOCK, "9.99");
        var buyers = placeOrders(productId, BUYERS);
        var race = race(strategy, productId, STOCK, buyers, DELAY, i -> api);
        figures.put(strategy, race.figures());
        log.info("{}", race.figures());
        return race;
    }
}
