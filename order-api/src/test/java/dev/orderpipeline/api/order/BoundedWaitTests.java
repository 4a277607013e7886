package dev.orderpipeline.api.order;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.infra.Postgres;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;

/**
 * Every wait of a request on the database has a bound: a product row held by another session ({@code FOR UPDATE} in
 * a transaction that does not end, as a frozen process would) makes an order of that product answer 503 with {@code
 * Retry-After} once the session's {@code lock_timeout} runs out, long before a client's own limit, and writes
 * nothing.
 */
class BoundedWaitTests extends ApiTestSupport {

    /**
     * Generous: the lock timeout is 2 s and the statement timeout 5 s; the issue's buyer waited 20 s, a client's
     * limit, behind a frozen worker.
     */
    private static final Duration WELL_BEFORE_A_CLIENTS_LIMIT = Duration.ofSeconds(12);

    @Value("${" + DATABASE_URL_PROPERTY + "}")
    private String databaseUrl;

    @Test
    void sessionsRunWithTheBoundsOfTheApplicationsConfiguration() {
        assertThat(setting("lock_timeout")).isEqualTo("2s");
        assertThat(setting("statement_timeout")).isEqualTo("5s");
        assertThat(setting("idle_in_transaction_session_timeout")).isEqualTo("10s");
    }

    @Test
    void answersServiceUnavailableWithRetryAfterWhenAnotherSessionHoldsTheProduct() throws SQLException {
        var product = createProduct(10, "3.00");
        var buyer = newUser();

        // a session of its own, outside the pool and its idle-in-transaction bound: it holds the row as long as needed
        try (var holder = Postgres.forTests().connect(databaseUrl)) {
            holder.setAutoCommit(false);
            try (var lock = holder.prepareStatement("SELECT stock FROM product WHERE id = ? FOR UPDATE")) {
                lock.setObject(1, product);
                lock.executeQuery().close();
            }
            var other = createProduct(10, "1.00");

            assertAnsweredUnavailableInTime("""
                    {"productId": "%s", "quantity": 1}
                    """.formatted(product), buyer);
            // a cart's lines go in in product id order, the held product first or second
            assertAnsweredUnavailableInTime("""
                    {"lines": [{"productId": "%s", "quantity": 1}, {"productId": "%s", "quantity": 1}]}
                    """.formatted(other, product), buyer);
            holder.rollback();
        }

        assertThat(ordersOf(buyer)).isZero();
        // the row is free again: the same order goes through
        var retried = api.post("/api/orders", """
                {"productId": "%s", "quantity": 1}
                """.formatted(product), AUTHORIZATION, bearer(buyer));
        assertThat(retried.status()).as(retried::toString).isEqualTo(201);
    }

    private void assertAnsweredUnavailableInTime(String order, String buyer) {
        var started = System.nanoTime();
        var response = api.post("/api/orders", order, AUTHORIZATION, bearer(buyer));
        var waited = Duration.ofNanos(System.nanoTime() - started);

        assertThat(response.status()).as(response::toString).isEqualTo(503);
        assertThat(response.header("Retry-After")).as(response::toString).isPresent();
        assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:database-unavailable");
        assertThat(waited).isLessThan(WELL_BEFORE_A_CLIENTS_LIMIT);
    }

    private String setting(String name) {
        return jdbc.sql("SELECT current_setting(:name)")
                .param("name", name)
                .query(String.class)
                .single();
    }
}
