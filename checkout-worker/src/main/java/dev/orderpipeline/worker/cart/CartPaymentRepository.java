package dev.orderpipeline.worker.cart;

import dev.orderpipeline.worker.checkout.TimeOrderedIds;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The one {@code payment} of a completed cart: the sum of its lines' price x quantity. */
@Repository
class CartPaymentRepository {

    // Prices are read, not locked: a plain read takes no lock, so the lock order (orders, lines, products) holds.
    private static final String CAPTURE = """
            INSERT INTO payment (id, order_id, amount, status)
            SELECT v.id, v.order_id,
                   (SELECT sum(p.price * l.quantity)
                    FROM order_line l JOIN product p ON p.id = l.product_id
                    WHERE l.order_id = v.order_id),
                   'CAPTURED'
            FROM unnest(:ids, :orderIds) AS v(id, order_id)
            """;

    private final JdbcClient jdbc;

    CartPaymentRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Captures one payment per cart (distinct ids); returns how many were captured. */
    int capture(List<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return 0;
        }
        var ids = new UUID[orderIds.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = TimeOrderedIds.next();
        }
        return jdbc.sql(CAPTURE)
                .param("ids", ids)
                .param("orderIds", orderIds.toArray(UUID[]::new))
                .update();
    }
}
