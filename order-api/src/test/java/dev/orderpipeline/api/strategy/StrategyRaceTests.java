package dev.orderpipeline.api.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.checkout.CommandTap;
import dev.orderpipeline.contract.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The article's experiment: 300 buyers, one unit each, press checkout at the same instant on a product with 100
 * units. Every strategy runs with the same 20 ms check-to-write delay (a slow payment call), which makes the naive
 * strategies' race certain instead of likely, and costs the correct ones only time.
 */
class StrategyRaceTests extends StrategyTestSupport {

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

    @Test
    void acceptsEveryKafkaCheckoutAndPublishesOneCommandPerOrder() {
        var productId = createProduct(STOCK, "9.99");
        var buyers = placeOrders(productId, BUYERS);

        var race = race("kafka", productId, STOCK, buyers, "", i -> api);
        figures.put("kafka", race.figures() + "   (the worker decides: its tests and the e2e run check exactness)");

        assertThat(race.statuses()).isEqualTo(Map.of(202, (long) BUYERS));
        var records = new ArrayList<ConsumerRecord<String, String>>();
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                records.addAll(tap.pollForProduct(productId));
                assertThat(records).hasSize(BUYERS);
            });
        }
        var commandIds = new HashSet<String>();
        for (var record : records) {
            var header = Objects.requireNonNull(record.headers().lastHeader(Headers.COMMAND_ID));
            commandIds.add(new String(header.value(), StandardCharsets.UTF_8));
        }
        assertThat(commandIds).hasSize(BUYERS);
        // the API itself changes nothing: deciding is the worker's job, and no worker runs in this module's tests
        var report = race.report();
        assertThat(report.stockLeft()).isEqualTo(STOCK);
        assertThat(report.ordersNotFinal()).isEqualTo(BUYERS);
        assertThat(report.payments()).isZero();
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
