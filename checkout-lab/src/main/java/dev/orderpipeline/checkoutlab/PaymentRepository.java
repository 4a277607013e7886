package dev.orderpipeline.checkoutlab;

import java.math.BigDecimal;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The {@code payment} table. There is deliberately no unique key on the order: at most one payment per order is
 * the strategies' job, and the naive ones show what happens when they do not do it.
 */
@Component
final class PaymentRepository {

    private static final String CAPTURE = """
            INSERT INTO payment (id, order_id, amount, status)
            VALUES (:id, :orderId, :amount, 'CAPTURED')
            """;

    private final JdbcClient jdbc;

    PaymentRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void capture(PricedOrder priced) {
        capture(priced.order().id(), priced.amount());
    }

    /** A payment of {@code amount}, for a cart, whose amount adds up its lines. */
    void capture(UUID orderId, BigDecimal amount) {
        jdbc.sql(CAPTURE)
                .param("id", UUID.randomUUID())
                .param("orderId", orderId)
                .param("amount", amount)
                .update();
    }
}
