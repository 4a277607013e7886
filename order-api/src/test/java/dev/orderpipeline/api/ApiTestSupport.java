package dev.orderpipeline.api;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.Postgres;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The application on a random port, its actuator on another, with a fresh PostgreSQL database and an embedded Kafka
 * broker. Every test class
 * that extends it without adding configuration shares the one context (and so the database and broker): tests
 * make their own products, orders and user ids and never assume an empty table.
 *
 * <p>The database is named through {@value #DATABASE_URL_PROPERTY} rather than set as {@code spring.datasource.url}
 * here: a dynamic property outranks every other source, and a subclass that needs a database of its own (the lab,
 * which relaxes the schema it migrates) points {@code spring.datasource.url} elsewhere with {@code
 * TestPropertySource}, which outranks this class's {@code properties}.
 */
@SpringBootTest(
        // named rather than found: subclasses outside the application's package (the lab's) share this
        classes = OrderApiApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.datasource.url=${" + ApiTestSupport.DATABASE_URL_PROPERTY + "}",
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            "orderpipeline.checkout.max-wait=3s",
            // scheduled, but not within a test run: tests run the retention job themselves, and a scheduled run
            // would delete the keys a test expired before the test looks at them
            "orderpipeline.orders.retention-job.interval=1h",
            // small, so that a test can reach the bound of event streams with a few
            "orderpipeline.checkout.events.max-streams=3",
            // short, so that a test sees heartbeats and a vanished client's stream end within seconds
            "orderpipeline.checkout.events.heartbeat=500ms",
            // the lab's strategy races queue hundreds of requests on the pool at once; waiting is what they measure
            "spring.datasource.hikari.connection-timeout=30000",
        })
@EmbeddedKafka
public abstract class ApiTestSupport {

    /** The JDBC URL of the production tests' database. */
    protected static final String DATABASE_URL_PROPERTY = "orderpipeline.test.database-url";

    private static final String DATABASE_URL = Postgres.forTests().createDatabase("order_api");

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add(DATABASE_URL_PROPERTY, () -> DATABASE_URL);
        registry.add("spring.datasource.username", () -> Postgres.forTests().user());
        var password = Postgres.forTests().password();
        if (password != null) {
            registry.add("spring.datasource.password", () -> password);
        }
    }

    @LocalServerPort
    private int port;

    @LocalManagementPort
    private int managementPort;

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    protected EmbeddedKafkaBroker broker;

    /** A client that acts as an administrator unless a request brings its own token. */
    protected ApiClient api;

    /** A client of the actuator, on the management port, with no token: what probes and Prometheus send. */
    protected ApiClient management;

    @Autowired
    private Environment environment;

    @BeforeEach
    void connectClient() {
        // the product's answers are held to the product's description; the lab's checkout is not the product's
        if (environment.getProperty("orderpipeline.lab.enabled", Boolean.class, false)) {
            DescribedResponses.undescribed(port);
        } else {
            DescribedResponses.describe(port);
        }
        api = new ApiClient(port);
        management = ApiClient.anonymous(managementPort);
    }

    protected int port() {
        return port;
    }

    protected int managementPort() {
        return managementPort;
    }

    protected static String newUser() {
        return "user-" + UUID.randomUUID();
    }

    protected UUID createProduct(int stock, String price) {
        var response = api.post("/api/products", """
                {"name": "Hot product", "stock": %d, "price": %s}
                """.formatted(stock, price));
        assertThat(response.status()).as(response::toString).isEqualTo(201);
        return UUID.fromString(response.json().get("id").asString());
    }

    protected JsonNode createOrder(String userId, UUID productId, int quantity) {
        var response = api.post("/api/orders", """
                {"productId": "%s", "quantity": %d}
                """.formatted(productId, quantity), AUTHORIZATION, bearer(userId));
        assertThat(response.status()).as(response::toString).isEqualTo(201);
        return response.json();
    }

    protected UUID createOrderId(String userId) {
        return UUID.fromString(
                createOrder(userId, createProduct(10, "12.50"), 1).get("id").asString());
    }

    /** How many orders {@code userId} has in the database, whatever the API answered. */
    protected long ordersOf(String userId) {
        return jdbc.sql("SELECT count(*) FROM orders WHERE user_id = :user")
                .param("user", userId)
                .query(Long.class)
                .single();
    }

    protected String statusInDatabase(UUID orderId) {
        return jdbc.sql("SELECT status FROM orders WHERE id = :id")
                .param("id", orderId)
                .query(String.class)
                .single();
    }

    /** Decides the order in the database as a checkout would: COMPLETED, or REJECTED for want of stock. */
    protected void decideInDatabase(UUID orderId, String status) {
        jdbc.sql("""
                        UPDATE orders
                           SET status = :status,
                               reject_reason = CASE WHEN :status = 'REJECTED' THEN 'INSUFFICIENT_STOCK' END
                         WHERE id = :id
                        """).param("status", status).param("id", orderId).update();
    }

    protected long count(String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    /** Sessions of this database waiting for a lock in a statement that contains {@code statementPart}. */
    protected long sessionsWaitingForALock(String statementPart) {
        return jdbc.sql("""
                        SELECT count(*)
                          FROM pg_stat_activity
                         WHERE datname = current_database()
                           AND wait_event_type = 'Lock'
                           AND strpos(query, :part) > 0
                        """).param("part", statementPart).query(Long.class).single();
    }
}
