package dev.orderpipeline.api;

import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The API against a real broker and PostgreSQL in containers, wired by {@link ServiceConnection} alone: a product,
 * an order, a checkout whose command reaches the topic keyed by product, and a checkout naming a lab strategy
 * refused. Runs where Docker is available and is skipped elsewhere; the other tests use an in-JVM broker and a local
 * or embedded PostgreSQL.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ContainersRoundTripTests {

    @Container
    @ServiceConnection
    static final KafkaContainer KAFKA = new KafkaContainer(ContainersConfiguration.KAFKA_IMAGE);

    @Container
    @ServiceConnection
    static final PostgreSQLContainer POSTGRES = new PostgreSQLContainer(ContainersConfiguration.POSTGRES_IMAGE);

    @LocalServerPort
    private int port;

    @LocalManagementPort
    private int managementPort;

    private ApiClient api;

    private ApiClient management;

    @BeforeEach
    void connectClient() {
        api = new ApiClient(port);
        management = ApiClient.anonymous(managementPort);
    }

    @Test
    void createsAProductAndAnOrderAndHandsItsCheckoutToTheBroker() {
        var alice = "alice-" + UUID.randomUUID();
        var product = api.post("/api/products", "{\"name\": \"Hot sneakers\", \"stock\": 2, \"price\": 99.90}");
        assertThat(product.status()).as(product::toString).isEqualTo(201);
        var productId = product.json().get("id").asString();
        var orderId = placeOrder(alice, productId);

        var labCheckout = api.post(
                "/api/orders/" + orderId + "/checkout?strategy=db-atomic", null, "Authorization", bearer(alice));
        assertThat(labCheckout.status()).as(labCheckout::toString).isEqualTo(400);
        assertThat(labCheckout.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:lab-off");

        var accepted = api.post("/api/orders/" + orderId + "/checkout", null, "Authorization", bearer(alice));
        assertThat(accepted.status()).as(accepted::toString).isEqualTo(202);
        assertThat(accepted.header("Location")).hasValue("/api/orders/" + orderId);
        assertThat(commandsFor(productId))
                .singleElement()
                .satisfies(command -> assertThat(command.value()).contains(orderId));

        // no worker runs here: the order waits for one, and the stock is untouched
        var polled = api.get("/api/orders/" + orderId, "Authorization", bearer(alice));
        assertThat(polled.json().get("status").asString()).isEqualTo("CREATED");
        assertThat(api.get("/api/products/" + productId).json().get("stock").asInt())
                .isEqualTo(2);
        assertThat(management.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(management.get("/actuator/health/kafka").status()).isEqualTo(200);
    }

    private String placeOrder(String userId, String productId) {
        var order = api.post(
                "/api/orders",
                "{\"productId\": \"" + productId + "\", \"quantity\": 1}",
                "Authorization",
                bearer(userId));
        assertThat(order.status()).as(order::toString).isEqualTo(201);
        return order.json().get("id").asString();
    }

    /** The commands keyed by this product, read from the start of the topic. */
    private static List<ConsumerRecord<String, String>> commandsFor(String productId) {
        var found = new ArrayList<ConsumerRecord<String, String>>();
        try (var consumer = new KafkaConsumer<>(
                Map.<String, Object>of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KAFKA.getBootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "round-trip-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.CHECKOUT_COMMANDS));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (productId.equals(record.key())) {
                        found.add(record);
                    }
                }
                return !found.isEmpty();
            });
        }
        return found;
    }
}
