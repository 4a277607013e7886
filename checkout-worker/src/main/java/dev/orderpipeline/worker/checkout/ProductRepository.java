package dev.orderpipeline.worker.checkout;

import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code product} stock checkout commands take from. */
@Repository
public class ProductRepository {

    // In id order, so that two transactions over overlapping products cannot deadlock. Until the commit no other
    // writer can change these rows, so the stock read here is the stock the decisions are made from. FOR NO KEY
    // UPDATE, the mode the UPDATE below takes anyway: it excludes every other writer of the row but not the FOR KEY
    // SHARE that the foreign-key check of an order or order-line insert takes, so creating orders of a product never
    // waits for a batch that holds it, and cannot deadlock with one.
    private static final String LOCK_STOCK = """
            SELECT id, stock
            FROM product
            WHERE id = ANY(:ids)
            ORDER BY id
            FOR NO KEY UPDATE
            """;

    // The guard stays in the statement although the rows are locked: the row count says whether every product had
    // what the decisions took from it, and a product whose stock fell short is simply not updated.
    private static final String TAKE_STOCK = """
            UPDATE product
            SET stock = product.stock - v.taken, updated_at = now()
            FROM unnest(:ids, :taken) AS v(id, taken)
            WHERE product.id = v.id AND product.stock >= v.taken
            """;

    private final JdbcClient jdbc;

    ProductRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the products that exist among {@code ids} for the rest of the transaction and returns their stock. */
    public Map<UUID, Integer> lockStock(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return jdbc
                .sql(LOCK_STOCK)
                .param("ids", ids.toArray(UUID[]::new))
                .query((rs, row) -> Map.entry(rs.getObject("id", UUID.class), rs.getInt("stock")))
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /**
     * Takes the given units from each product in one statement, each product only if it still has that many.
     *
     * @param taken units to take by product id; a negative amount gives units back (a released reservation), which
     *     the guard always lets through
     * @return how many products gave them; fewer than {@code taken.size()} means some stock was not there
     */
    public int takeStock(Map<UUID, Integer> taken) {
        if (taken.isEmpty()) {
            return 0;
        }
        var ids = new UUID[taken.size()];
        var units = new Integer[taken.size()];
        int i = 0;
        for (var product : taken.entrySet()) {
            ids[i] = product.getKey();
            units[i++] = product.getValue();
        }
        return jdbc.sql(TAKE_STOCK).param("ids", ids).param("taken", units).update();
    }
}
