package dev.orderpipeline.api.product;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The {@code product} table. */
@Component
public final class ProductRepository {

    private static final String COLUMNS = "id, name, stock, price, created_at, updated_at";

    private static final String INSERT = """
            INSERT INTO product (id, name, stock, price)
            VALUES (:id, :name, :stock, :price)
            RETURNING %s
            """.formatted(COLUMNS);

    private static final String FIND_BY_ID = """
            SELECT %s
              FROM product
             WHERE id = :id
            """.formatted(COLUMNS);

    // The bound in the statement: stock is an int, and a sum beyond it would fail in the database
    private static final String RESTOCK = """
            UPDATE product
               SET stock = stock + :units, updated_at = now()
             WHERE id = :id AND stock <= 2147483647 - :units
            RETURNING %s
            """.formatted(COLUMNS);

    private final JdbcClient jdbc;

    ProductRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Product insert(NewProduct product) {
        return jdbc.sql(INSERT)
                .param("id", product.id())
                .param("name", product.name())
                .param("stock", product.stock())
                .param("price", product.price())
                .query(ProductRepository::map)
                .single();
    }

    /** Adds units to the product's stock; empty when it does not exist or the stock would pass an int's range. */
    Optional<Product> restock(UUID id, int units) {
        return jdbc.sql(RESTOCK)
                .param("id", id)
                .param("units", units)
                .query(ProductRepository::map)
                .optional();
    }

    public Optional<Product> findById(UUID id) {
        return jdbc.sql(FIND_BY_ID)
                .param("id", id)
                .query(ProductRepository::map)
                .optional();
    }

    private static Product map(ResultSet row, int rowNumber) throws SQLException {
        return new Product(
                row.getObject("id", UUID.class),
                row.getString("name"),
                row.getInt("stock"),
                row.getBigDecimal("price"),
                instant(row, "created_at"),
                instant(row, "updated_at"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        return Objects.requireNonNull(row.getObject(column, OffsetDateTime.class), column)
                .toInstant();
    }
}
