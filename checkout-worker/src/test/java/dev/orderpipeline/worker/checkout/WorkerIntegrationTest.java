package dev.orderpipeline.worker.checkout;

import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.Postgres;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The worker against a real PostgreSQL and a real (embedded) Kafka broker. Every test class extending this one shares
 * the same application context, database and broker, so each test works on products and orders of its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
// sessions of the consumer group protocol short enough that a test can wait one out (the broker's defaults are 45 s)
@EmbeddedKafka(
        brokerProperties = {
            "group.consumer.min.session.timeout.ms=6000",
            "group.consumer.session.timeout.ms=6000",
            "group.consumer.min.heartbeat.interval.ms=1000",
            "group.consumer.heartbeat.interval.ms=1000"
        })
public abstract class WorkerIntegrationTest {

    protected static final String DATABASE_URL = Postgres.forTests().createDatabase("checkout_worker");

    protected static final JsonMapper JSON = JsonMapper.builder().build();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> DATABASE_URL);
        registry.add("spring.datasource.username", () -> Postgres.forTests().user());
        var password = Postgres.forTests().password();
        if (password != null) {
            registry.add("spring.datasource.password", () -> password);
        }
    }

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    protected KafkaTemplate<String, Object> kafka;

    @Autowired
    protected EmbeddedKafkaBroker broker;

    protected UUID createProduct(int stock, String price) {
        var id = UUID.randomUUID();
        jdbc.sql("INSERT INTO product (id, name, stock, price) VALUES (:id, :name, :stock, :price)")
                .param("id", id)
                .param("name", "product " + id)
                .param("stock", stock)
                .param("price", new BigDecimal(price))
                .update();
        return id;
    }

    /** Creates orders of one product, in the order the list gives them, each by a user of its own. */
    protected List<UUID> createOrders(UUID productId, int count, int quantity) {
        var ids = IntStream.range(0, count).mapToObj(i -> UUID.randomUUID()).toList();
        jdbc.sql("""
                        INSERT INTO orders (id, user_id, product_id, quantity)
                        SELECT id, 'user-' || id, :productId, :quantity FROM unnest(:ids) AS t(id)
                        """)
                .param("ids", ids.toArray(UUID[]::new))
                .param("productId", productId)
                .param("quantity", quantity)
                .update();
        return ids;
    }

    /** The checkout command the API would publish for an order. */
    CheckoutCommand commandFor(UUID orderId) {
        return jdbc.sql("SELECT product_id, user_id, quantity FROM orders WHERE id = :id")
                .param("id", orderId)
                .query((rs, row) -> CheckoutCommand.of(
                        orderId,
                        rs.getObject("product_id", UUID.class),
                        rs.getString("user_id"),
                        rs.getInt("quantity"),
                        Instant.now()))
                .single();
    }

    List<CheckoutCommand> commandsFor(List<UUID> orderIds) {
        return orderIds.stream().map(this::commandFor).toList();
    }

    /** Publishes commands as the API does (keyed by product, command id header) and waits for the acks. */
    void publish(List<CheckoutCommand> commands) {
        var sends = new ArrayList<CompletableFuture<?>>();
        for (var command : commands) {
            var record = new ProducerRecord<String, Object>(Topics.CHECKOUT_COMMANDS, command.key(), command);
            record.headers().add(header(Headers.COMMAND_ID, command.commandId().toString()));
            record.headers().add(header(Headers.COMMAND_TYPE, CheckoutCommand.TYPE));
            sends.add(kafka.send(record));
        }
        waitFor(sends);
    }

    /** Publishes a record as it is; {@code testCase} goes in a header that follows the record to the DLT. */
    void publishRaw(String key, Object value, String testCase, @Nullable String commandIdHeader) {
        var record = new ProducerRecord<String, Object>(Topics.CHECKOUT_COMMANDS, key, value);
        record.headers().add(header("test-case", testCase));
        if (commandIdHeader != null) {
            record.headers().add(header(Headers.COMMAND_ID, commandIdHeader));
        }
        waitFor(List.of(kafka.send(record)));
    }

    protected static RecordHeader header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }

    protected static void waitFor(List<CompletableFuture<?>> sends) {
        try {
            CompletableFuture.allOf(sends.toArray(CompletableFuture<?>[]::new)).get(30, TimeUnit.SECONDS);
        } catch (Exception ex) {
            throw new AssertionError("publishing failed", ex);
        }
    }

    /** Waits until every order has a recorded checkout outcome. */
    void awaitDecided(Collection<UUID> orderIds) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> decidedCount(orderIds) == orderIds.size());
    }

    long decidedCount(Collection<UUID> orderIds) {
        return jdbc.sql("SELECT count(*) FROM processed_command WHERE order_id = ANY(:ids) AND outcome IS NOT NULL")
                .param("ids", orderIds.toArray(UUID[]::new))
                .query(Long.class)
                .single();
    }

    protected int stock(UUID productId) {
        return jdbc.sql("SELECT stock FROM product WHERE id = :id")
                .param("id", productId)
                .query(Integer.class)
                .single();
    }

    /** Status and reject reason of each order, e.g. {@code COMPLETED} or {@code REJECTED/INSUFFICIENT_STOCK}. */
    protected List<String> statuses(List<UUID> orderIds) {
        return orderIds.stream()
                .map(id -> jdbc.sql("SELECT status || coalesce('/' || reject_reason, '') FROM orders WHERE id = :id")
                        .param("id", id)
                        .query(String.class)
                        .single())
                .toList();
    }

    /** Payments per order: count and total amount. */
    protected List<Payments> payments(List<UUID> orderIds) {
        return jdbc.sql("""
                        SELECT o.id, count(p.id) AS payments, coalesce(sum(p.amount), 0) AS total
                        FROM orders o LEFT JOIN payment p ON p.order_id = o.id
                        WHERE o.id = ANY(:ids)
                        GROUP BY o.id
                        """)
                .param("ids", orderIds.toArray(UUID[]::new))
                .query((rs, row) ->
                        new Payments(rs.getObject("id", UUID.class), rs.getInt("payments"), rs.getBigDecimal("total")))
                .list();
    }

    protected record Payments(UUID orderId, int count, BigDecimal total) {}

    protected static CheckoutResult parseResult(byte[] value) {
        return JSON.readValue(value, CheckoutResult.class);
    }
}
