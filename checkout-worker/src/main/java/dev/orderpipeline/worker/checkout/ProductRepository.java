package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The {@code product} stock checkout commands take from. */
@Repository
class ProductRepository {

    // The guard is the WHERE clause: the row count says whether the stock was there.
    private static final String TAKE_STOCK = """
            UPDATE product
            SET stock = stock - ?, updated_at = now()
            WHERE id = ? AND stock >= ?
            """;

    private final JdbcTemplate jdbc;

    ProductRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Takes each command's quantity from its product's stock if that much is left, one statement per command in
     * the given order, sent as one JDBC batch.
     *
     * @return per command, 1 if the stock was taken, 0 if there was not enough
     */
    int[] takeStock(List<CheckoutCommand> commands) {
        if (commands.isEmpty()) {
            return new int[0];
        }
        var arguments = commands.stream()
                .map(command -> new Object[] {command.quantity(), command.productId(), command.quantity()})
                .toList();
        return jdbc.batchUpdate(TAKE_STOCK, arguments);
    }
}
