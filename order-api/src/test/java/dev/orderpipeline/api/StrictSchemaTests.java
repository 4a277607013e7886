package dev.orderpipeline.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.util.PSQLException;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The production schema refuses what the pipeline never writes, whoever the writer: a second payment of an order,
 * a status or a reject reason outside the pipeline's, a negative stock. Statements go to the production tests'
 * database directly, past the API, as a buggy writer's would.
 */
class StrictSchemaTests extends ApiTestSupport {

    private static final String UNIQUE_VIOLATION = "23505";
    private static final String CHECK_VIOLATION = "23514";

    @Autowired
    Flyway flyway;

    @Autowired
    DataSource pool;

    @Test
    void isMigratedOnSessionsOfItsOwnNotThePools() {
        // the pool's sessions carry the API's statement timeout (spring.flyway.user in application.yml); the
        // migration sessions' settings are Migrations' (MigrationsTests)
        assertThat(flyway.getConfiguration().getDataSource()).isNotSameAs(pool).isNotInstanceOf(HikariDataSource.class);
    }

    @Test
    void refusesASecondPaymentOfAnOrder() {
        var orderId = createOrderId(newUser());
        pay(orderId);

        var failure = violation(() -> pay(orderId));

        assertThat(failure.getSQLState()).isEqualTo(UNIQUE_VIOLATION);
        assertThat(constraint(failure)).isEqualTo("payment_order_unique");
        assertThat(jdbc.sql("SELECT count(*) FROM payment WHERE order_id = :id")
                        .param("id", orderId)
                        .query(Long.class)
                        .single())
                .isOne();
    }

    @Test
    void refusesTheLabsProcessingStatus() {
        var orderId = createOrderId(newUser());

        var failure = violation(() -> jdbc.sql("UPDATE orders SET status = 'PROCESSING' WHERE id = :id")
                .param("id", orderId)
                .update());

        assertThat(failure.getSQLState()).isEqualTo(CHECK_VIOLATION);
        assertThat(constraint(failure)).isEqualTo("orders_status_known");
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
    }

    @Test
    void refusesAStockBelowZero() {
        var productId = createProduct(1, "1.00");

        var failure = violation(() -> jdbc.sql("UPDATE product SET stock = stock - 2 WHERE id = :id")
                .param("id", productId)
                .update());

        assertThat(failure.getSQLState()).isEqualTo(CHECK_VIOLATION);
        assertThat(constraint(failure)).isEqualTo("product_stock_not_negative");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"OPTIMISTIC_RETRIES_EXHAUSTED", "SERIALIZATION_RETRIES_EXHAUSTED", "CHECKOUT_FAILED", "OOPS"})
    void refusesARejectReasonThePipelineDoesNotKnow(String reason) {
        var orderId = createOrderId(newUser());

        var failure = violation(() -> reject(orderId, reason));

        assertThat(failure.getSQLState()).isEqualTo(CHECK_VIOLATION);
        assertThat(constraint(failure)).isEqualTo("orders_reject_reason_known");
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"INSUFFICIENT_STOCK", "ORDER_NOT_CREATED"})
    void takesThePipelinesRejectReasons(String reason) {
        var orderId = createOrderId(newUser());

        assertThat(reject(orderId, reason)).isOne();
    }

    @Test
    void hasNoVersionColumnOnProducts() {
        assertThat(jdbc.sql("""
                        SELECT count(*)
                          FROM information_schema.columns
                         WHERE table_schema = current_schema() AND table_name = 'product' AND column_name = 'version'
                        """).query(Long.class).single()).isZero();
    }

    private void pay(UUID orderId) {
        jdbc.sql("INSERT INTO payment (id, order_id, amount) VALUES (:id, :orderId, 12.50)")
                .param("id", UUID.randomUUID())
                .param("orderId", orderId)
                .update();
    }

    private int reject(UUID orderId, String reason) {
        return jdbc.sql("UPDATE orders SET status = 'REJECTED', reject_reason = :reason WHERE id = :id")
                .param("reason", reason)
                .param("id", orderId)
                .update();
    }

    /** The database's refusal of the statement. */
    private static SQLException violation(Runnable statement) {
        var failure = catchThrowable(statement::run);
        assertThat(failure).as("the statement was refused").isNotNull();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql;
            }
        }
        throw new AssertionError("not refused by the database", failure);
    }

    private static String constraint(SQLException failure) {
        if (failure instanceof PSQLException server && server.getServerErrorMessage() != null) {
            return server.getServerErrorMessage().getConstraint();
        }
        throw new AssertionError("no server message naming the constraint", failure);
    }
}
