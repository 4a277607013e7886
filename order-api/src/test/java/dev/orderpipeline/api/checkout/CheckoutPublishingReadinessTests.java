package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.DescribedResponses;
import dev.orderpipeline.api.TestDatabases;
import dev.orderpipeline.infra.KafkaBroker;
import dev.orderpipeline.infra.Postgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The API started before its broker: not ready while the producer cannot learn where checkouts go, ready once the
 * broker is up (its topics created then, as the start could not), and ready still when the broker goes away again.
 * The producer's and admin's waits are cut short so the start does not take long.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.kafka.producer.properties[max.block.ms]=1500",
            "spring.kafka.admin.operation-timeout=1s",
            "spring.kafka.admin.close-timeout=1s",
            "orderpipeline.health.broker.timeout=1s",
            // the results listener's consumer gives up a call to the absent broker within a second, and the context's
            // close waits for it that long, not the 30 s of each shutdown phase
            "spring.kafka.consumer.properties[default.api.timeout.ms]=1000",
            "spring.lifecycle.timeout-per-shutdown-phase=5s",
        })
@DirtiesContext
@Execution(ExecutionMode.CONCURRENT) // its own broker and database: it runs beside the other classes
class CheckoutPublishingReadinessTests {

    private static final String DATABASE_URL = Postgres.forTests().createDatabase("order_api_publishing_readiness");

    /** Described, on ports of its own, and started by the test: its address is known before it runs. */
    private static final KafkaBroker BROKER = KafkaBroker.create(KafkaBroker.Settings.onFreePorts(workDirectory()));

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestDatabases.use(registry, DATABASE_URL);
        registry.add("spring.kafka.bootstrap-servers", BROKER::bootstrapServers);
    }

    @AfterAll
    static void stopBroker() {
        if (BROKER.isRunning()) {
            BROKER.stop();
        }
    }

    @LocalServerPort
    private int port;

    @LocalManagementPort
    private int managementPort;

    private ApiClient api;

    private ApiClient management;

    @BeforeEach
    void connectClient() {
        DescribedResponses.describe(port);
        api = new ApiClient(port);
        management = ApiClient.anonymous(managementPort);
    }

    @Test
    void becomesReadyOnceItCanPublishAndStaysReadyWhenTheBrokerGoesAway() {
        var notReady = management.get("/actuator/health/readiness");
        assertThat(notReady.status()).as(notReady::toString).isEqualTo(503);
        assertThat(notReady.json().at("/components/checkoutPublishing/status").asString())
                .isEqualTo("OUT_OF_SERVICE");
        assertThat(notReady.json().at("/components/db/status").asString()).isEqualTo("UP");
        assertThat(management.get("/actuator/health/liveness").status()).isEqualTo(200);

        BROKER.start();

        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(
                                management.get("/actuator/health/readiness").status())
                        .isEqualTo(200));
        var alice = "alice-" + UUID.randomUUID();
        var checkout = api.post(
                "/api/orders/" + PlacedOrders.place(api, alice) + "/checkout", null, "Authorization", bearer(alice));
        assertThat(checkout.status()).as(checkout::toString).isEqualTo(202);

        BROKER.stop();

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                management.get("/actuator/health/kafka").status())
                        .isEqualTo(503));
        var readiness = management.get("/actuator/health/readiness");
        assertThat(readiness.status()).as(readiness::toString).isEqualTo(200);
        assertThat(readiness.json().at("/components/checkoutPublishing/status").asString())
                .isEqualTo("UP");
    }

    private static Path workDirectory() {
        try {
            return Files.createTempDirectory(Path.of("target"), "late-kafka");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
