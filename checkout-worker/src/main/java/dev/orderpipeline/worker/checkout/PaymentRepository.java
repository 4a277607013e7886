package dev.orderpipeline.worker.checkout;

import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code payment} rows captured for completed checkouts, of one product or of a cart. */
@Repository
public class PaymentRepository {

    // The amount is computed from the product row this transaction has locked to take its stock. The ids are
    // time-ordered (see TimeOrderedIds): a batch's payments go to the end of the primary key's index.
    private static final String CAPTURE = """
            INSERT INTO payment (id, order_id, amount, status)
            SELECT v.id, o.id, p.price * o.quantity, 'CAPTURED'
            FROM unnest(:ids, :orderIds) AS v(id, order_id)
            JOIN orders o ON o.id = v.order_id
            JOIN product p ON p.id = o.product_id
            """;

    // A cart's amount is the sum of its lines' price x quantity. Prices are read, not locked: a plain read takes no
    // lock, so the cart coordinator's lock order (orders, lines, products) holds.
    private static final String CAPTURE_CARTS = """
            INSERT INTO payment (id, order_id, amount, status)
            SELECT v.id, v.order_id,
                   (SELECT sum(p.price * l.quantity)
                    FROM order_line l JOIN product p ON p.id = l.product_id
                    WHERE l.order_id = v.order_id),
                   'CAPTURED'
            FROM unnest(:ids, :orderIds) AS v(id, order_id)
            """;

    private final JdbcClient jdbc;

    PaymentRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Captures one payment of price x quantity per order (distinct ids); returns how many were captured. */
    int capture(List<UUID> orderIds) {
        return capture(CAPTURE, orderIds);
    }

    /** Captures one payment per cart (distinct ids) of the sum of its lines; returns how many were captured. */
    public int captureCarts(List<UUID> orderIds) {
        return capture(CAPTURE_CARTS, orderIds);
    }

    private int capture(String statement, List<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return 0;
        }
        var ids = new UUID[orderIds.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = TimeOrderedIds.next();
        }
        return jdbc.sql(statement)
                .param("ids", ids)
                .param("orderIds", orderIds.toArray(UUID[]::new))
                .update();
    }
}
