package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.lab.measure.Progress;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.IntUnaryOperator;
import javax.sql.DataSource;

/**
 * Prepares a {@link Backlog} in the database with set-based statements: the products in one INSERT, the orders in
 * INSERTs of {@value #CHUNK} rows each from arrays (unnest). Nothing here is timed: it is the state a run starts
 * from, as if buyers had created their orders through the API earlier.
 */
public final class BacklogWriter {

    /** Orders per INSERT: large enough to be set-based, small enough to keep each statement's arrays modest. */
    static final int CHUNK = 20_000;

    private static final BigDecimal PRICE = new BigDecimal("10.00");

    private static final String INSERT_PRODUCTS = """
            INSERT INTO product (id, name, stock, price)
            SELECT v.id, ? || ' #' || v.n, v.stock, ?
            FROM unnest(?::uuid[], ?::int[]) WITH ORDINALITY AS v(id, stock, n)
            """;

    private static final String INSERT_ORDERS = """
            INSERT INTO orders (id, user_id, product_id, quantity, status)
            SELECT v.id, v.user_id, v.product_id, 1, 'CREATED'
            FROM unnest(?::uuid[], ?::text[], ?::uuid[]) AS v(id, user_id, product_id)
            """;

    private final DataSource dataSource;

    public BacklogWriter(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Creates the products of {@code distribution} and {@code orders} orders spread over them; {@code tag} (unique per
     * run) names the products and users and seeds the spread, {@code stock} gives each product's stock from the number
     * of orders it got.
     */
    public Backlog create(
            String tag, KeyDistribution distribution, int orders, IntUnaryOperator stock, Progress progress) {
        if (orders < 1) {
            throw new IllegalArgumentException("at least one order: " + orders);
        }
        var random = new SplittableRandom(tag.hashCode());
        var sampler = distribution.sampler(random.split());
        var productOfOrder = new int[orders];
        var counts = new int[distribution.products()];
        for (var i = 0; i < orders; i++) {
            productOfOrder[i] = sampler.getAsInt();
            counts[productOfOrder[i]]++;
        }
        var initialStock = new LinkedHashMap<UUID, Integer>();
        for (var count : counts) {
            initialStock.put(randomUuid(random), stock.applyAsInt(count));
        }
        var high = new long[orders];
        var low = new long[orders];
        for (var i = 0; i < orders; i++) {
            var id = randomUuid(random);
            high[i] = id.getMostSignificantBits();
            low[i] = id.getLeastSignificantBits();
        }
        var backlog = new Backlog(tag, List.copyOf(initialStock.keySet()), initialStock, high, low, productOfOrder);
        progress.phase("prepare " + distribution.label() + ": " + orders + " orders", orders);
        try (var connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            insertProducts(connection, tag, backlog);
            connection.commit();
            insertOrders(connection, backlog, progress);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not prepare the backlog " + tag + ": " + ex.getMessage(), ex);
        }
        return backlog;
    }

    private static void insertProducts(Connection connection, String tag, Backlog backlog) throws SQLException {
        var ids = backlog.initialStock().keySet().toArray(UUID[]::new);
        var stocks = backlog.initialStock().values().toArray(Integer[]::new);
        try (var statement = connection.prepareStatement(INSERT_PRODUCTS)) {
            statement.setString(1, "lab " + tag);
            statement.setBigDecimal(2, PRICE);
            statement.setArray(3, connection.createArrayOf("uuid", ids));
            statement.setArray(4, connection.createArrayOf("int4", stocks));
            statement.executeUpdate();
        }
    }

    private static void insertOrders(Connection connection, Backlog backlog, Progress progress) throws SQLException {
        try (var statement = connection.prepareStatement(INSERT_ORDERS)) {
            for (var from = 0; from < backlog.size(); from += CHUNK) {
                var to = Math.min(backlog.size(), from + CHUNK);
                var ids = new UUID[to - from];
                var users = new String[to - from];
                var products = new UUID[to - from];
                for (var i = from; i < to; i++) {
                    ids[i - from] = backlog.orderId(i);
                    users[i - from] = backlog.userId(i);
                    products[i - from] = backlog.productId(i);
                }
                statement.setArray(1, connection.createArrayOf("uuid", ids));
                statement.setArray(2, connection.createArrayOf("text", users));
                statement.setArray(3, connection.createArrayOf("uuid", products));
                statement.executeUpdate();
                connection.commit();
                progress.advance(to - from);
            }
        }
    }

    /** A version-4 UUID from a fast generator: ids only need to be unique, not unguessable. */
    static UUID randomUuid(SplittableRandom random) {
        var high = (random.nextLong() & ~0xF000L) | 0x4000L;
        var low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }
}
