package dev.orderpipeline.api.web;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.TestDatabases;
import dev.orderpipeline.infra.Postgres;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The application against a real PostgreSQL that stops answering while it runs: the database refuses every
 * connection, or accepts reads only. Every endpoint answers 503 {@code database-unavailable} with the configured
 * {@code Retry-After}, writes nothing, and answers normally again once the database is back; a failure that is our
 * bug (a table that is not there) stays a 500, as a problem too. The database is this class's own, so that
 * switching it off disturbs no other test.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            // a request gives up on the pool after this, instead of the 30 s the other tests allow
            "spring.datasource.hikari.connection-timeout=1000",
            // the test server's connections are shared by every cached context; this one needs few
            "spring.datasource.hikari.maximum-pool-size=4",
            // not the default, so that the answer shows it is the configured value
            "orderpipeline.checkout.retry-after=9s",
        })
@EmbeddedKafka
@DirtiesContext
@Execution(ExecutionMode.CONCURRENT) // its own broker and database: it runs beside the other classes
class DatabaseOutageTests {

    private static final String DATABASE_URL = Postgres.forTests().createDatabase("order_api_outage");
    private static final String DATABASE = DATABASE_URL.substring(DATABASE_URL.lastIndexOf('/') + 1);

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabases.use(registry, DATABASE_URL);
    }

    @LocalServerPort
    private int port;

    @Autowired
    private JdbcClient jdbc;

    private ApiClient api;
    private String buyer;
    private UUID productId;
    private UUID orderId;

    @BeforeEach
    void createProductAndOrder() {
        api = new ApiClient(port);
        buyer = "buyer-" + UUID.randomUUID();
        var product = api.post("/api/products", "{\"name\": \"Outage product\", \"stock\": 10, \"price\": 4.50}");
        assertThat(product.status()).as(product::toString).isEqualTo(201);
        productId = UUID.fromString(product.json().get("id").asString());
        var order = api.post("/api/orders", orderBody(), AUTHORIZATION, bearer(buyer));
        assertThat(order.status()).as(order::toString).isEqualTo(201);
        orderId = UUID.fromString(order.json().get("id").asString());
    }

    @AfterEach
    void databaseIsBack() {
        admin("ALTER DATABASE " + DATABASE + " ALLOW_CONNECTIONS true");
        admin("ALTER DATABASE " + DATABASE + " RESET default_transaction_read_only");
        terminateSessions();
        awaitAnswers();
    }

    @Test
    void answersServiceUnavailableOnEveryEndpointWhileTheDatabaseRefusesConnections() {
        var before = counts();
        admin("ALTER DATABASE " + DATABASE + " ALLOW_CONNECTIONS false");
        terminateSessions();

        for (var response : everyEndpoint()) {
            assertDatabaseUnavailable(response);
        }

        admin("ALTER DATABASE " + DATABASE + " ALLOW_CONNECTIONS true");
        awaitAnswers();
        assertThat(counts()).isEqualTo(before);
        assertEveryEndpointAnswers();
    }

    @Test
    void answersServiceUnavailableToWritesWhileTheDatabaseIsReadOnly() {
        var before = counts();
        admin("ALTER DATABASE " + DATABASE + " SET default_transaction_read_only = on");
        terminateSessions();
        // reads go on: the pool has replaced the terminated sessions with read-only ones
        awaitAnswers();

        assertDatabaseUnavailable(createProduct());
        assertDatabaseUnavailable(createOrder());
        assertThat(api.get("/api/orders/" + orderId, AUTHORIZATION, bearer(buyer))
                        .status())
                .isEqualTo(200);

        admin("ALTER DATABASE " + DATABASE + " RESET default_transaction_read_only");
        terminateSessions();
        awaitAnswers();
        assertThat(counts()).isEqualTo(before);
        assertEveryEndpointAnswers();
    }

    @Test
    void answersAnInternalErrorProblemWhenTheSqlIsWrong() {
        // a table the code expects and does not find is a bug of the code (or of its deployment), not an outage
        jdbc.sql("ALTER TABLE product RENAME TO product_elsewhere").update();
        try {
            var response = api.get("/api/products/" + productId);

            assertThat(response.status()).as(response::toString).isEqualTo(500);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.header("Retry-After")).isEmpty();
            assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:internal-error");
            // nothing of the database's message reaches the client
            assertThat(response.body()).doesNotContain("relation", "does not exist");
        } finally {
            jdbc.sql("ALTER TABLE product_elsewhere RENAME TO product").update();
        }
    }

    private List<ApiClient.Response> everyEndpoint() {
        return List.of(
                createProduct(),
                api.get("/api/products/" + productId),
                createOrder(),
                api.get("/api/orders/" + orderId, AUTHORIZATION, bearer(buyer)));
    }

    private void assertEveryEndpointAnswers() {
        var answers = everyEndpoint();
        assertThat(answers).extracting(ApiClient.Response::status).containsExactly(201, 200, 201, 200);
    }

    private ApiClient.Response createProduct() {
        return api.post("/api/products", "{\"name\": \"Written during the outage\", \"stock\": 1, \"price\": 1}");
    }

    private ApiClient.Response createOrder() {
        return api.post("/api/orders", orderBody(), AUTHORIZATION, bearer(buyer));
    }

    private String orderBody() {
        return "{\"productId\": \"" + productId + "\", \"quantity\": 1}";
    }

    private static void assertDatabaseUnavailable(ApiClient.Response response) {
        assertThat(response.status()).as(response::toString).isEqualTo(503);
        assertThat(response.header("Retry-After")).as(response::toString).hasValue("9");
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:database-unavailable");
        assertThat(problem.get("title").asString()).isEqualTo("Database unavailable");
        assertThat(problem.get("status").asInt()).isEqualTo(503);
        assertThat(problem.get("detail").asString()).isNotBlank();
        assertThat(problem.get("instance").asString()).startsWith("/api/");
    }

    /** Waits until the application reads from the database again (the pool reconnects on its own). */
    private void awaitAnswers() {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(
                        () -> assertThat(api.get("/api/products/" + productId).status())
                                .isEqualTo(200));
    }

    private List<Long> counts() {
        return List.of(count("product"), count("orders"));
    }

    private long count(String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    /** Ends the application's sessions, so that its pool has to open new ones under the new rules. */
    private static void terminateSessions() {
        admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + DATABASE
                + "' AND pid <> pg_backend_pid()");
    }

    /** Runs a statement as the server's administrator, from another database than the one it changes. */
    private static void admin(String sql) {
        var server = Postgres.forTests();
        try (var connection = server.connect(server.jdbcUrl("postgres"));
                var statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not run " + sql, ex);
        }
    }
}
