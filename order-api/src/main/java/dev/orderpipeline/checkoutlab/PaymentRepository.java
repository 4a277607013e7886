package dev.orderpipeline.checkoutlab;

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
        jdbc.sql(CAPTURE)
                .param("id", UUID.randomUUID())
                .param("orderId", priced.order().id())
                .param("amount", priced.amount())
                .update();
    }
}
