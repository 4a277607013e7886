package dev.orderpipeline.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.orderpipeline.infra.Postgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * The cart shape the database enforces at commit (V25): a cart has at least two lines numbered 1..n, an order of one
 * product has none. Each case writes in one transaction, as the API does, and commits.
 */
class CartShapeTests {

    private static final Postgres POSTGRES = Postgres.forTests();

    private static String url = "";

    private static UUID first = UUID.randomUUID();

    private static UUID second = UUID.randomUUID();

    private static UUID third = UUID.randomUUID();

    @BeforeAll
    static void migrate() throws SQLException {
        url = POSTGRES.createDatabase("cart_shape_test");
        Migrations.migrate(Migrations.flyway(url, POSTGRES.user(), POSTGRES.password()));
        inOneTransaction(connection -> {
            for (var product : List.of(first, second, third)) {
                execute(
                        connection,
                        "INSERT INTO product (id, name, stock, price) VALUES ('" + product + "', 'p', 10, 1)");
            }
        });
    }

    @Test
    void acceptsCartsOfTwoOrMoreLinesNumberedFromOneAndOrdersOfOneProductWithoutLines() throws SQLException {
        var two = UUID.randomUUID();
        var three = UUID.randomUUID();
        var single = UUID.randomUUID();

        inOneTransaction(connection -> {
            cart(connection, two, 1, 2);
            cart(connection, three, 1, 2, 3);
            single(connection, single);
        });

        assertThat(count("SELECT count(*) FROM orders WHERE id IN ('" + two + "', '" + three + "', '" + single + "')"))
                .isEqualTo(3);
        assertThat(count("SELECT count(*) FROM order_line WHERE order_id IN ('" + two + "', '" + three + "')"))
                .isEqualTo(5);
    }

    @Test
    void refusesACartWithoutLines() {
        var id = UUID.randomUUID();

        assertRefused(connection -> cart(connection, id), "cart " + id + " has 0 lines: a cart has at least two");
        assertNothingOf(id);
    }

    @Test
    void refusesACartWithOneLine() {
        var id = UUID.randomUUID();

        assertRefused(connection -> cart(connection, id, 1), "cart " + id + " has 1 lines: a cart has at least two");
        assertNothingOf(id);
    }

    @Test
    void refusesACartWhoseLinesHaveAGap() {
        var id = UUID.randomUUID();

        assertRefused(
                connection -> cart(connection, id, 1, 3),
                "cart " + id + " has 2 lines numbered up to 3: a cart's lines are numbered from 1 without gaps");
        assertNothingOf(id);
    }

    @Test
    void refusesLinesOnAnOrderOfOneProduct() {
        var id = UUID.randomUUID();

        assertRefused(
                connection -> {
                    single(connection, id);
                    line(connection, id, 1, second);
                },
                "order " + id + " is an order of one product and has 1 lines: only a cart has lines");
        assertNothingOf(id);
    }

    @Test
    void refusesALineTakenFromACartOfTwoOrRenumberedPastAGap() throws SQLException {
        var id = UUID.randomUUID();
        inOneTransaction(connection -> cart(connection, id, 1, 2, 3));

        assertRefused(
                connection ->
                        execute(connection, "DELETE FROM order_line WHERE order_id = '" + id + "' AND line_no = 2"),
                "cart " + id + " has 2 lines numbered up to 3");
        assertRefused(
                connection -> execute(
                        connection, "UPDATE order_line SET line_no = 7 WHERE order_id = '" + id + "' AND line_no = 3"),
                "cart " + id + " has 3 lines numbered up to 7");
        assertThat(count("SELECT count(*) FROM order_line WHERE order_id = '" + id + "' AND line_no <= 3"))
                .isEqualTo(3);
    }

    @Test
    void acceptsAnOrderDeletedWithItsLines() throws SQLException {
        var id = UUID.randomUUID();
        inOneTransaction(connection -> cart(connection, id, 1, 2));

        inOneTransaction(connection -> {
            execute(connection, "DELETE FROM order_line WHERE order_id = '" + id + "'");
            execute(connection, "DELETE FROM orders WHERE id = '" + id + "'");
        });

        assertNothingOf(id);
    }

    private interface Work {
        void run(Connection connection) throws SQLException;
    }

    private static void inOneTransaction(Work work) throws SQLException {
        try (var connection = POSTGRES.connect(url)) {
            connection.setAutoCommit(false);
            work.run(connection);
            connection.commit();
        }
    }

    private static void assertRefused(Work work, String message) {
        assertThatThrownBy(() -> inOneTransaction(work))
                .isInstanceOfSatisfying(PSQLException.class, refusal -> {
                    assertThat(refusal.getSQLState()).isEqualTo("23514");
                    var error = refusal.getServerErrorMessage();
                    assertThat(error).isNotNull();
                    assertThat(error.getConstraint()).isEqualTo("orders_cart_shape");
                })
                .hasMessageContaining(message);
    }

    private static void assertNothingOf(UUID id) {
        assertThat(count("SELECT count(*) FROM orders WHERE id = '" + id + "'")).isZero();
        assertThat(count("SELECT count(*) FROM order_line WHERE order_id = '" + id + "'"))
                .isZero();
    }

    private static void cart(Connection connection, UUID id, int... lineNumbers) throws SQLException {
        execute(connection, "INSERT INTO orders (id, user_id) VALUES ('" + id + "', 'u')");
        var products = new ArrayList<>(List.of(first, second, third));
        for (var lineNo : lineNumbers) {
            line(connection, id, lineNo, products.removeFirst());
        }
    }

    private static void single(Connection connection, UUID id) throws SQLException {
        execute(
                connection,
                "INSERT INTO orders (id, user_id, product_id, quantity) VALUES ('" + id + "', 'u', '" + first
                        + "', 1)");
    }

    private static void line(Connection connection, UUID order, int lineNo, UUID product) throws SQLException {
        execute(
                connection,
                "INSERT INTO order_line (order_id, line_no, product_id, quantity) VALUES ('" + order + "', " + lineNo
                        + ", '" + product + "', 1)");
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long count(String sql) {
        try (var connection = POSTGRES.connect(url);
                var statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
