package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.TestDatabases;
import dev.orderpipeline.infra.Postgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A context whose broker address is a closed local port: checkout must answer 503 within the producer's bounds
 * and leave the order as it was, and the instance stays alive, serving everything but checkouts, while its health
 * reports the broker down; it is not ready, as it never could publish. The producer, admin and listener timeouts are cut short so the context does not
 * spend minutes trying.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.kafka.producer.properties[max.block.ms]=1500",
            "spring.kafka.producer.properties[request.timeout.ms]=1000",
            "spring.kafka.producer.properties[delivery.timeout.ms]=2000",
            "spring.kafka.admin.operation-timeout=1s",
            "spring.kafka.admin.close-timeout=1s",
            "orderpipeline.checkout.retry-after=7s",
            "orderpipeline.health.broker.timeout=1s",
            // the results listener's consumer gives up a call to the absent broker within a second, and the context's
            // close waits for it that long, not the 30 s of each shutdown phase
            "spring.kafka.consumer.properties[default.api.timeout.ms]=1000",
            "spring.lifecycle.timeout-per-shutdown-phase=5s",
        })
@DirtiesContext
@Execution(ExecutionMode.CONCURRENT) // its own broker and database: it runs beside the other classes
class BrokerDownCheckoutTests {

    private static final String DATABASE_URL = Postgres.forTests().createDatabase("order_api_broker_down");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestDatabases.use(registry, DATABASE_URL);
        registry.add("spring.kafka.bootstrap-servers", () -> "127.0.0.1:" + closedPort());
    }

    @LocalServerPort
    private int port;

    @LocalManagementPort
    private int managementPort;

    @Autowired
    private JdbcClient jdbc;

    @Autowired
    private CheckoutWaiters waiters;

    private ApiClient api;

    private ApiClient management;

    @BeforeEach
    void connectClient() {
        api = new ApiClient(port);
        management = ApiClient.anonymous(managementPort);
    }

    @Test
    void answersServiceUnavailableAndLeavesTheOrderCreated() {
        var alice = "alice-" + UUID.randomUUID();
        var orderId = PlacedOrders.place(api, alice);

        var started = System.nanoTime();
        var response = api.post("/api/orders/" + orderId + "/checkout", null, "Authorization", bearer(alice));
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(response.status()).as(response::toString).isEqualTo(503);
        assertThat(response.header("Retry-After")).contains("7");
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:broker-unavailable");
        assertThat(problem.get("title").asString()).isEqualTo("Message broker unavailable");
        assertThat(problem.get("status").asInt()).isEqualTo(503);
        assertThat(problem.get("orderId").asString()).isEqualTo(orderId.toString());
        assertThat(elapsed).isLessThan(Duration.ofSeconds(10));
        assertThat(PlacedOrders.statusOf(jdbc, orderId)).isEqualTo("CREATED");
    }

    @Test
    void answersServiceUnavailableToAWaitingCheckoutAndForgetsTheWaiter() {
        var alice = "alice-" + UUID.randomUUID();
        var orderId = PlacedOrders.place(api, alice);

        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, "Authorization", bearer(alice), "Prefer", "wait=5");

        assertThat(response.status()).as(response::toString).isEqualTo(503);
        assertThat(response.header("Preference-Applied")).isEmpty();
        assertThat(waiters.waiting()).isZero();
        assertThat(PlacedOrders.statusOf(jdbc, orderId)).isEqualTo("CREATED");
    }

    @Test
    void boundsTheWaitOfConcurrentCheckouts() throws Exception {
        var buyers = 4;
        var orders = new ArrayList<UUID>();
        var users = new ArrayList<String>();
        for (var i = 0; i < buyers; i++) {
            users.add("buyer-" + UUID.randomUUID());
            orders.add(PlacedOrders.place(api, users.getLast()));
        }
        var start = new CountDownLatch(1);
        try (var pool = Executors.newFixedThreadPool(buyers)) {
            var answers = new ArrayList<Future<ApiClient.Response>>();
            for (var i = 0; i < buyers; i++) {
                var orderId = orders.get(i);
                var userId = users.get(i);
                answers.add(pool.submit(() -> {
                    start.await();
                    return api.post("/api/orders/" + orderId + "/checkout", null, "Authorization", bearer(userId));
                }));
            }
            var started = System.nanoTime();
            start.countDown();
            for (var answer : answers) {
                assertThat(answer.get(30, TimeUnit.SECONDS).status()).isEqualTo(503);
            }
            // every request waits for the broker on its own (max.block.ms = 1.5 s here), not one after another
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        }
        assertThat(orders)
                .allSatisfy(orderId ->
                        assertThat(PlacedOrders.statusOf(jdbc, orderId)).isEqualTo("CREATED"));
    }

    @Test
    void staysAliveButNotReadyAndReportsTheBrokerDown() {
        var started = System.nanoTime();
        var broker = management.get("/actuator/health/kafka");
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        // down, and said so within the check's own timeout rather than the clients' defaults
        assertThat(broker.status()).as(broker::toString).isEqualTo(503);
        assertThat(broker.json().get("status").asString()).isEqualTo("DOWN");
        assertThat(elapsed).isLessThan(Duration.ofSeconds(5));
        assertThat(management.get("/actuator/health").status()).isEqualTo(503);
        // not ready: the producer never learned where checkouts go, so each would wait max.block.ms for a 503
        var readiness = management.get("/actuator/health/readiness");
        assertThat(readiness.status()).as(readiness::toString).isEqualTo(503);
        assertThat(readiness.json().get("components").propertyNames())
                .containsExactlyInAnyOrder("readinessState", "db", "checkoutPublishing");
        assertThat(readiness.json().at("/components/checkoutPublishing/status").asString())
                .isEqualTo("OUT_OF_SERVICE");
        assertThat(readiness.json().at("/components/db/status").asString()).isEqualTo("UP");
        // nor restarted: a restart brings no broker back; it still serves everything but checkouts
        assertThat(management.get("/actuator/health/liveness").status()).isEqualTo(200);
        var alice = "alice-" + UUID.randomUUID();
        var orderId = PlacedOrders.place(api, alice);
        var read = api.get("/api/orders/" + orderId, "Authorization", bearer(alice));
        assertThat(read.status()).as(read::toString).isEqualTo(200);
        assertThat(read.json().get("status").asString()).isEqualTo("CREATED");
    }

    private static int closedPort() {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
