package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.DescribedResponses;
import dev.orderpipeline.api.TestDatabases;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.infra.KafkaBroker;
import dev.orderpipeline.infra.Postgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A broker that hangs after the producer learned the topic (a process stopped with SIGSTOP: connections are still
 * accepted, nothing is answered): the command is handed to the producer, which gives up at its delivery timeout not
 * knowing whether the broker appended it. The API says exactly that, with a problem of its own, and never the
 * "nothing happened" of broker-unavailable; once the broker resumes, the same checkout again is accepted, and every
 * record of the order on the topic is the one command. The producer's bounds are cut short so the wait is seconds.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.kafka.producer.properties[request.timeout.ms]=1000",
            "spring.kafka.producer.properties[delivery.timeout.ms]=2500",
            "orderpipeline.checkout.retry-after=3s",
            "orderpipeline.health.broker.timeout=1s",
        })
@DirtiesContext
@Execution(ExecutionMode.CONCURRENT) // its own broker and database: it runs beside the other classes
class CheckoutOutcomeUnknownTests {

    private static final String DATABASE_URL = Postgres.forTests().createDatabase("order_api_outcome_unknown");

    private static @Nullable KafkaBroker kafka;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestDatabases.use(registry, DATABASE_URL);
        registry.add("spring.kafka.bootstrap-servers", () -> broker().bootstrapServers());
    }

    @AfterAll
    static void stopBroker() {
        var running = kafka;
        if (running != null) {
            signal(running, "CONT");
            running.stop();
        }
    }

    @LocalServerPort
    private int port;

    @Autowired
    private JdbcClient jdbc;

    @Autowired
    private DefaultKafkaProducerFactory<String, Object> producers;

    @Autowired
    private KafkaTemplate<String, Object> commands;

    private ApiClient api;

    @BeforeEach
    void connectClient() {
        DescribedResponses.describe(port);
        api = new ApiClient(port);
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD) // the tests stop the same broker
    void answersOutcomeUnknownWhenTheBrokerHangsAfterTakingTheCommandAndAcceptsTheSameCheckoutLater() {
        var alice = "alice-" + UUID.randomUUID();
        // the producer learns the topic's partitions while the broker answers
        var before = api.post(
                "/api/orders/" + PlacedOrders.place(api, alice) + "/checkout", null, "Authorization", bearer(alice));
        assertThat(before.status()).as(before::toString).isEqualTo(202);
        var orderId = PlacedOrders.place(api, alice);

        ApiClient.Response unknown;
        signal(broker(), "STOP");
        try {
            unknown = api.post("/api/orders/" + orderId + "/checkout", null, "Authorization", bearer(alice));
        } finally {
            signal(broker(), "CONT");
        }

        assertThat(unknown.status()).as(unknown::toString).isEqualTo(503);
        assertThat(unknown.header("Retry-After")).contains("3");
        var problem = unknown.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:checkout-outcome-unknown");
        assertThat(problem.get("orderId").asString()).isEqualTo(orderId.toString());
        assertThat(problem.get("detail").asString()).contains("Retry the same checkout", "/api/orders/" + orderId);

        // the client does as told: the same checkout again, until the broker confirms it
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(
                                api.post("/api/orders/" + orderId + "/checkout", null, "Authorization", bearer(alice))
                                        .status())
                        .isEqualTo(202));
        assertThat(PlacedOrders.statusOf(jdbc, orderId)).isEqualTo("CREATED");
        try (var tap = new CommandTap(broker().bootstrapServers())) {
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(tap.pollFor(orderId))
                            .isNotEmpty()
                            .allSatisfy(record -> assertThat(CommandTap.value(record)
                                            .get("commandId")
                                            .asString())
                                    .isEqualTo(CheckoutCommand.idFor(orderId).toString())));
        }
    }

    /**
     * The shared producer closed by force with checkouts in flight, as spring-kafka closes it when one record's send
     * fails with {@code OutOfOrderSequenceException} (a broker killed on a cluster did that): every record it still had
     * fails with "Producer is closed forcefully", a failure Kafka does not call retriable. Each of those checkouts is
     * answered 503, outcome unknown, never 500; retried after the broker answers again, each is accepted, and the topic
     * holds its one command.
     */
    @Test
    @Execution(ExecutionMode.SAME_THREAD) // the tests stop the same broker
    void answersOutcomeUnknownForEveryCheckoutInFlightWhenTheProducerIsClosedByForce() throws Exception {
        var buyers = 5;
        var alice = "alice-" + UUID.randomUUID();
        var learned = api.post(
                "/api/orders/" + PlacedOrders.place(api, alice) + "/checkout", null, "Authorization", bearer(alice));
        assertThat(learned.status()).as(learned::toString).isEqualTo(202);
        var orders = IntStream.range(0, buyers)
                .mapToObj(buyer -> PlacedOrders.place(api, alice))
                .toList();
        var sentBefore = recordsSent();

        List<ApiClient.Response> answers;
        signal(broker(), "STOP");
        try (var clients = Executors.newFixedThreadPool(buyers)) {
            var start = new CountDownLatch(1);
            var checkouts = orders.stream()
                    .map(orderId -> clients.submit(() -> {
                        start.await();
                        return api.post("/api/orders/" + orderId + "/checkout", null, "Authorization", bearer(alice));
                    }))
                    .toList();
            start.countDown();
            // every command is on its way to the stopped broker: in flight, the producer waiting for an answer (on a
            // machine so slow that this takes longer than the delivery timeout, they expire instead: 503s all the same)
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> recordsSent() - sentBefore >= buyers);
            producers.setPhysicalCloseTimeout(0);
            producers.reset();
            answers = new ArrayList<>();
            for (var checkout : checkouts) {
                answers.add(checkout.get(30, TimeUnit.SECONDS));
            }
        } finally {
            signal(broker(), "CONT");
        }

        // a 503 each; a command the close caught is an unknown outcome, one that reached the producer only after it
        // (a request slower than the others) was not sent at all, the stopped broker giving no metadata
        var unknown = "urn:order-pipeline:problem:checkout-outcome-unknown";
        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).as(answer::toString).isEqualTo(503);
            assertThat(answer.json().get("type").asString())
                    .isIn(unknown, "urn:order-pipeline:problem:broker-unavailable");
            assertThat(answer.header("Retry-After")).contains("3");
        });
        assertThat(answers)
                .anySatisfy(answer ->
                        assertThat(answer.json().get("type").asString()).isEqualTo(unknown));
        for (var orderId : orders) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(api.post(
                                            "/api/orders/" + orderId + "/checkout",
                                            null,
                                            "Authorization",
                                            bearer(alice))
                                    .status())
                            .isEqualTo(202));
            assertThat(PlacedOrders.statusOf(jdbc, orderId)).isEqualTo("CREATED");
        }
        try (var tap = new CommandTap(broker().bootstrapServers())) {
            var commands = new HashMap<UUID, List<String>>();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (var record : tap.poll()) {
                    var command = CommandTap.value(record);
                    commands.computeIfAbsent(
                                    UUID.fromString(command.get("orderId").asString()), id -> new ArrayList<>())
                            .add(command.get("commandId").asString());
                }
                assertThat(commands).containsKeys(orders.toArray(UUID[]::new));
            });
            assertThat(orders)
                    .allSatisfy(orderId -> assertThat(commands.get(orderId))
                            .isNotEmpty()
                            .containsOnly(CheckoutCommand.idFor(orderId).toString()));
        }
    }

    /** Records the API's producer has sent to the broker (retries included), from its own metrics. */
    private double recordsSent() {
        return commands.metrics().entrySet().stream()
                .filter(metric -> metric.getKey().name().equals("record-send-total")
                        && metric.getKey().group().equals("producer-metrics"))
                .mapToDouble(metric -> ((Number) metric.getValue().metricValue()).doubleValue())
                .sum();
    }

    private static synchronized KafkaBroker broker() {
        if (kafka == null) {
            try {
                kafka = KafkaBroker.startOnFreePorts(Files.createTempDirectory(Path.of("target"), "outcome-kafka"));
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        return kafka;
    }

    /** kill -STOP or -CONT: the process keeps its sockets, and answers nothing while stopped. */
    private static void signal(KafkaBroker broker, String signal) {
        try {
            var kill = new ProcessBuilder("kill", "-" + signal, Long.toString(broker.pid()))
                    .inheritIO()
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + broker.pid() + " failed");
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
