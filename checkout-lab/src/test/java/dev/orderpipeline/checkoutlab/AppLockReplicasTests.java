package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.OrderApiApplication;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/**
 * A lock inside the process serializes one instance: with a second instance of the API on the same database and
 * broker, each instance has locks of its own and their checkouts of one product race like naive-tx.
 */
class AppLockReplicasTests extends LabTestSupport {

    private static final Logger log = LoggerFactory.getLogger(AppLockReplicasTests.class);

    private static final int STOCK = 100;
    private static final int BUYERS = 300;
    private static final String SLOW_CALL = "delayMs=20";

    @Autowired
    private Environment environment;

    private @Nullable ConfigurableApplicationContext secondInstance;

    @AfterEach
    void stopSecondInstance() {
        if (secondInstance != null) {
            secondInstance.close();
        }
    }

    @Test
    void isExactOnOneInstance() {
        var productId = createProduct(STOCK, "4.00");
        var buyers = placeOrders(productId, BUYERS);

        var race = race("app-lock", productId, STOCK, buyers, SLOW_CALL, i -> api);
        log.info("one instance:  {}", race.figures());

        assertExact(race.report(), STOCK, BUYERS);
    }

    @Test
    void oversellsOrLosesUpdatesAcrossTwoInstances() {
        var second = new ApiClient(startSecondInstance());
        var productId = createProduct(STOCK, "4.00");
        var buyers = placeOrders(productId, BUYERS);

        // every other buyer goes to the other instance, as a round-robin load balancer would send them
        var race = race("app-lock", productId, STOCK, buyers, SLOW_CALL, i -> i % 2 == 0 ? api : second);
        log.info("two instances: {}", race.figures());

        assertThat(race.statuses()).isEqualTo(Map.of(200, (long) BUYERS));
        var report = race.report();
        assertThat(report.oversold() || report.drift() != 0)
                .as("oversold or drifted: %s", report)
                .isTrue();
    }

    /**
     * Another instance of the application on a random port, sharing this one's database and broker. The settings
     * go in as command-line arguments, which (unlike default properties) take precedence over application.yml.
     */
    private int startSecondInstance() {
        var arguments = new java.util.ArrayList<String>();
        arguments.add("--server.port=0");
        // the actuator's own port too: its default (9080) may be taken by a pipeline running beside the tests
        arguments.add("--management.server.port=0");
        arguments.add("--spring.main.banner-mode=off");
        arguments.add("--orderpipeline.lab.enabled=true");
        arguments.add("--spring.datasource.url=" + environment.getRequiredProperty("spring.datasource.url"));
        arguments.add("--spring.datasource.username=" + environment.getRequiredProperty("spring.datasource.username"));
        var password = environment.getProperty("spring.datasource.password");
        if (password != null) {
            arguments.add("--spring.datasource.password=" + password);
        }
        // app-lock holds one connection per product at a time; keep the shared server's connections for others
        arguments.add("--spring.datasource.hikari.maximum-pool-size=5");
        arguments.add("--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString());
        secondInstance = new SpringApplicationBuilder(OrderApiApplication.class).run(arguments.toArray(String[]::new));
        return Objects.requireNonNull(secondInstance.getEnvironment().getProperty("local.server.port", Integer.class));
    }
}
