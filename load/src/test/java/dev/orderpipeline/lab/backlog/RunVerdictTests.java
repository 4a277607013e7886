package dev.orderpipeline.lab.backlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.drain.Ceiling;
import dev.orderpipeline.lab.measure.Progress;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The run's verdict summed over the {@link InvariantChecker}'s reports, on a real PostgreSQL. */
class RunVerdictTests {

    private static DataSource database;

    @BeforeAll
    static void database() throws SQLException {
        var postgres = Postgres.forTests();
        var source = new PGSimpleDataSource();
        source.setURL(postgres.createDatabase("lab_invariants"));
        source.setUser(postgres.user());
        if (postgres.password() != null) {
            source.setPassword(postgres.password());
        }
        Ceiling.migrate(source);
        database = source;
        // what a lab database allows (order-api's db/lab callback), so a double payment can be shown to the checker
        execute("ALTER TABLE payment DROP CONSTRAINT payment_order_unique");
    }

    @Test
    void sumsUpTheVerdictOnEveryProductOfTheRun() throws SQLException {
        var backlog = new BacklogWriter(database)
                .create(
                        "inv-" + UUID.randomUUID().toString().substring(0, 8),
                        new KeyDistribution.Uniform(5),
                        100,
                        orders -> orders,
                        Progress.silent());
        var products = backlog.products();
        // 0: every order completed properly; 1: completed without taking stock (drift); 2: completed, one order paid
        // twice; 3: untouched (not final); 4: every order rejected
        execute("""
                UPDATE product SET stock = 0 WHERE id = ?;
                UPDATE orders SET status = 'COMPLETED' WHERE product_id = ?;
                INSERT INTO payment (id, order_id, amount) SELECT gen_random_uuid(), id, 10 FROM orders WHERE product_id = ?
                """, products.get(0), products.get(0), products.get(0));
        execute("""
                UPDATE orders SET status = 'COMPLETED' WHERE product_id = ?;
                INSERT INTO payment (id, order_id, amount) SELECT gen_random_uuid(), id, 10 FROM orders WHERE product_id = ?
                """, products.get(1), products.get(1));
        execute("""
                UPDATE product SET stock = 0 WHERE id = ?;
                UPDATE orders SET status = 'COMPLETED' WHERE product_id = ?;
                INSERT INTO payment (id, order_id, amount) SELECT gen_random_uuid(), id, 10 FROM orders WHERE product_id = ?;
                INSERT INTO payment (id, order_id, amount)
                    SELECT gen_random_uuid(), id, 10 FROM orders WHERE product_id = ? ORDER BY id LIMIT 1
                """, products.get(2), products.get(2), products.get(2), products.get(2));
        execute("""
                UPDATE orders SET status = 'REJECTED', reject_reason = 'INSUFFICIENT_STOCK' WHERE product_id = ?
                """, products.get(4));

        var summary = new InvariantChecker(database).verdict(backlog.initialStock());
        assertThat(summary.products()).isEqualTo(5);
        assertThat(summary.productsViolating()).isEqualTo(3);
        assertThat(summary.doublePayments()).isEqualTo(1);
        // each product is stocked for the orders it got
        var orders = backlog.initialStock();
        assertThat(summary.drift()).isEqualTo(orders.get(products.get(1)).intValue());
        assertThat(summary.notFinal()).isEqualTo(orders.get(products.get(3)).intValue());
        assertThat(summary.rejected()).isEqualTo(orders.get(products.get(4)).intValue());
        assertThat(summary.holds()).isFalse();
    }

    private static void execute(String statements, UUID... products) throws SQLException {
        try (var connection = database.getConnection()) {
            var parts = statements.split(";");
            var next = 0;
            for (var part : parts) {
                if (part.isBlank()) {
                    continue;
                }
                try (var statement = connection.prepareStatement(part)) {
                    for (var i = 1; i <= statement.getParameterMetaData().getParameterCount(); i++) {
                        statement.setObject(i, products[next++]);
                    }
                    statement.executeUpdate();
                }
            }
        }
    }
}
