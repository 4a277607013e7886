package dev.orderpipeline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaTemplate;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The worker against the broker and database images production runs (Kafka 4.1 in KRaft mode, PostgreSQL 17), in
 * containers. Skipped where there is no Docker; the embedded broker and local PostgreSQL tests cover the same ground
 * there.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "orderpipeline.topics.command-partitions=3",
            "logging.level.org.apache.kafka=WARN",
            "logging.level.kafka=WARN",
            "logging.level.state.change.logger=WARN"
        })
@Import(ContainersConfiguration.class)
@Testcontainers(disabledWithoutDocker = true)
class CheckoutWorkerContainersTests {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    KafkaTemplate<String, Object> kafka;

    @Test
    void sellsTheLastItemOnceAndAppliesARedeliveredCommandOnce() throws Exception {
        var product = UUID.randomUUID();
        jdbc.sql("INSERT INTO product (id, name, stock, price) VALUES (:id, 'last one', 1, :price)")
                .param("id", product)
                .param("price", new BigDecimal("9.50"))
                .update();
        var commands = List.of(command(product), command(product), command(product));
        var first = commands.getFirst();

        publish(commands);
        publish(List.of(first));

        var orders = commands.stream().map(CheckoutCommand::orderId).toList();
        await().atMost(Duration.ofSeconds(60)).until(() -> decided(orders) == orders.size());
        assertThat(statuses(orders))
                .containsExactly("COMPLETED", "REJECTED/INSUFFICIENT_STOCK", "REJECTED/INSUFFICIENT_STOCK");
        assertThat(jdbc.sql("SELECT stock FROM product WHERE id = :id")
                        .param("id", product)
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM payment WHERE order_id = ANY(:ids)")
                        .param("ids", orders.toArray(UUID[]::new))
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    /** Creates an order as the API does and returns the command it would publish. */
    private CheckoutCommand command(UUID product) {
        var orderId = UUID.randomUUID();
        var userId = "user-" + orderId;
        jdbc.sql("INSERT INTO orders (id, user_id, product_id, quantity) VALUES (:id, :userId, :productId, 1)")
                .param("id", orderId)
                .param("userId", userId)
                .param("productId", product)
                .update();
        return CheckoutCommand.of(orderId, product, userId, 1, Instant.now());
    }

    private void publish(List<CheckoutCommand> commands) throws Exception {
        var sends = commands.stream()
                .map(command -> {
                    var record = new ProducerRecord<String, Object>(Topics.CHECKOUT_COMMANDS, command.key(), command);
                    record.headers()
                            .add(Headers.COMMAND_ID, bytes(command.commandId().toString()))
                            .add(Headers.COMMAND_TYPE, bytes(CheckoutCommand.TYPE));
                    return kafka.send(record);
                })
                .toArray(CompletableFuture<?>[]::new);
        CompletableFuture.allOf(sends).get(30, TimeUnit.SECONDS);
    }

    private long decided(List<UUID> orders) {
        return jdbc.sql("SELECT count(*) FROM processed_command WHERE order_id = ANY(:ids) AND outcome IS NOT NULL")
                .param("ids", orders.toArray(UUID[]::new))
                .query(Long.class)
                .single();
    }

    private List<String> statuses(List<UUID> orders) {
        return orders.stream()
                .map(id -> jdbc.sql("SELECT status || coalesce('/' || reject_reason, '') FROM orders WHERE id = :id")
                        .param("id", id)
                        .query(String.class)
                        .single())
                .toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
