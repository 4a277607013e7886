package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.test.context.TestPropertySource;

/**
 * A first rough figure, not a benchmark and not an assertion: how fast one worker thread drains a backlog of
 * commands for one hot product. Off by default; run it by hand with
 * {@code mvn -pl checkout-worker verify -Dtest=DrainRateTests -Ddrain-rate=true [-Ddrain-rate.commands=200000]}.
 */
@EnabledIfSystemProperty(named = "drain-rate", matches = "true")
@TestPropertySource(properties = "spring.kafka.listener.auto-startup=false")
class DrainRateTests extends WorkerIntegrationTest {

    private static final Logger log = LoggerFactory.getLogger(DrainRateTests.class);

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Autowired
    MeterRegistry meters;

    @Test
    void drainsABacklogOfOneHotProduct() {
        var commands = Integer.getInteger("drain-rate.commands", 200_000);
        var product = createProduct(10_000_000, "1.00");
        jdbc.sql("""
                        INSERT INTO orders (id, user_id, product_id, quantity)
                        SELECT gen_random_uuid(), 'user-' || g, :productId, 1 FROM generate_series(1, :count) AS g
                        """).param("productId", product).param("count", commands).update();
        var backlog = jdbc.sql("SELECT id, user_id FROM orders WHERE product_id = :productId")
                .param("productId", product)
                .query((rs, row) -> CheckoutCommand.of(
                        rs.getObject("id", UUID.class), product, rs.getString("user_id"), 1, Instant.now()))
                .list();
        var publishStarted = System.nanoTime();
        publish(backlog);
        log.info("Published {} commands in {} ms", commands, (System.nanoTime() - publishStarted) / 1_000_000);

        var started = System.nanoTime();
        listeners.getListenerContainer(CheckoutCommandListener.ID).start();
        await().atMost(Duration.ofMinutes(20))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> decided(product) == commands);
        var seconds = (System.nanoTime() - started) / 1e9;

        var span = jdbc.sql("""
                        SELECT min(pc.processed_at) AS first, max(pc.processed_at) AS last
                        FROM processed_command pc JOIN orders o ON o.id = pc.order_id
                        WHERE o.product_id = :productId
                        """)
                .param("productId", product)
                .query((rs, row) -> Duration.between(
                        rs.getObject("first", OffsetDateTime.class), rs.getObject("last", OffsetDateTime.class)))
                .single();
        var apply = meters.get("checkout.batch.apply").timer();
        var size = meters.get("checkout.batch.size").summary();
        log.info(
                "Drained {} commands in {} s from container start: {} commands/s; {} commands/s between the first and"
                        + " last batch transaction ({} ms); {} polls of {} records on average, applied in {} ms on"
                        + " average, {} ms at most",
                commands,
                String.format("%.1f", seconds),
                Math.round(commands / seconds),
                Math.round(commands / Math.max(0.001, span.toMillis() / 1000.0)),
                span.toMillis(),
                size.count(),
                Math.round(size.mean()),
                String.format("%.1f", apply.mean(TimeUnit.MILLISECONDS)),
                String.format("%.1f", apply.max(TimeUnit.MILLISECONDS)));
        assertThat(stock(product)).isEqualTo(10_000_000 - commands);
    }

    private long decided(UUID product) {
        return jdbc.sql("""
                        SELECT count(*) FROM processed_command pc JOIN orders o ON o.id = pc.order_id
                        WHERE o.product_id = :productId AND pc.outcome IS NOT NULL
                        """).param("productId", product).query(Long.class).single();
    }
}
