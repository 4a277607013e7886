package dev.orderpipeline.checkoutlab;

import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The {@code product} table as the strategies read and write it. Each write is one statement whose row count the
 * caller reads; which one a strategy uses is what makes it correct or not.
 */
@Component
final class StockRepository {

    // xmin is the id of the transaction that wrote this version of the row: every writer changes it, the worker and
    // the other strategies included, without having to know that anybody reads it as a version token
    private static final String READ = """
            SELECT id, stock, price, xmin::text::bigint AS row_version
              FROM product
             WHERE id = :id
            """;

    // the row lock is held until the transaction ends: nobody else reads it FOR UPDATE or writes it meanwhile
    private static final String READ_FOR_UPDATE = READ + " FOR UPDATE";

    // the read-modify-write: whatever anyone wrote since :stock was computed is overwritten
    private static final String WRITE = """
            UPDATE product
               SET stock = :stock,
                   updated_at = now()
             WHERE id = :id
            """;

    private static final String WRITE_IF_VERSION = """
            UPDATE product
               SET stock = :stock,
                   updated_at = now()
             WHERE id = :id
               AND xmin::text::bigint = :rowVersion
            """;

    // check and decrement in one statement: a concurrent writer makes this one wait and re-check the new row
    private static final String DECREMENT_IF_AVAILABLE = """
            UPDATE product
               SET stock = stock - :quantity,
                   updated_at = now()
             WHERE id = :id
               AND stock >= :quantity
            """;

    private final JdbcClient jdbc;

    StockRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    ProductStock read(UUID productId) {
        return query(READ, productId);
    }

    /** Reads and locks the row for the rest of the transaction; only meaningful inside one. */
    ProductStock readForUpdate(UUID productId) {
        return query(READ_FOR_UPDATE, productId);
    }

    /** Sets the stock to a value computed from an earlier read. Unguarded: it is as safe as that read was. */
    void write(UUID productId, int stock) {
        var rows = jdbc.sql(WRITE).param("id", productId).param("stock", stock).update();
        requireProduct(rows, productId);
    }

    /** Sets the stock only if nobody wrote the row since {@code rowVersion} was read; false when somebody did. */
    boolean writeIfVersion(UUID productId, int stock, long rowVersion) {
        return jdbc.sql(WRITE_IF_VERSION)
                        .param("id", productId)
                        .param("stock", stock)
                        .param("rowVersion", rowVersion)
                        .update()
                == 1;
    }

    /** Takes {@code quantity} units if there are that many; false when there are not. */
    boolean decrementIfAvailable(UUID productId, int quantity) {
        return jdbc.sql(DECREMENT_IF_AVAILABLE)
                        .param("id", productId)
                        .param("quantity", quantity)
                        .update()
                == 1;
    }

    private ProductStock query(String sql, UUID productId) {
        return jdbc.sql(sql)
                .param("id", productId)
                .query((row, rowNumber) -> new ProductStock(
                        row.getObject("id", UUID.class),
                        row.getInt("stock"),
                        row.getBigDecimal("price"),
                        row.getLong("row_version")))
                .optional()
                .orElseThrow(() -> missing(productId));
    }

    private static void requireProduct(int rows, UUID productId) {
        if (rows != 1) {
            throw missing(productId);
        }
    }

    // an order's product cannot vanish (foreign key, products are never deleted): this is a bug, not a request error
    private static IllegalStateException missing(UUID productId) {
        return new IllegalStateException("product " + productId + " of an order being checked out is gone");
    }
}
