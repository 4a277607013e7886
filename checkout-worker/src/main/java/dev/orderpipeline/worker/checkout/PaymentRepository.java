package dev.orderpipeline.worker.checkout;

import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code payment} rows captured for completed checkouts. */
@Repository
class PaymentRepository {

    // The amount is computed from the product row this transaction has just locked by taking its stock.
    private static final String CAPTURE = """
            INSERT INTO payment (id, order_id, amount, status)
            SELECT gen_random_uuid(), o.id, p.price * o.quantity, 'CAPTURED'
            FROM orders o
            JOIN product p ON p.id = o.product_id
            WHERE o.id = ANY(:orderIds)
            """;

    private final JdbcClient jdbc;

    PaymentRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Captures one payment of price x quantity per order; returns how many were captured. */
    int capture(List<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return 0;
        }
        return jdbc.sql(CAPTURE)
                .param("orderIds", orderIds.toArray(UUID[]::new))
                .update();
    }
}
