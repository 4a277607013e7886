package dev.orderpipeline.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.orderpipeline.infra.Postgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The migration sessions on a real PostgreSQL: their settings, and a migration that cannot get its lock. */
class MigrationsTests {

    /** The first version after the grandfathered ones: an index built concurrently on orders. */
    private static final String FIRST_CONCURRENT_BUILD = "23";

    private static final String INDEX = "orders_overdue_carts_idx";

    private final Postgres postgres = Postgres.forTests();

    private String url = "";

    @BeforeEach
    void freshDatabase() {
        url = postgres.createDatabase("migrations_test");
    }

    @Test
    void aMigrationRunsOnSessionsThatWaitForALockBrieflyAndForAStatementAsLongAsItTakes() {
        var settings = new LinkedHashMap<String, String>();
        Callback recorder = new Callback() {
            @Override
            public boolean supports(Event event, Context context) {
                return event == Event.BEFORE_EACH_MIGRATE;
            }

            @Override
            public boolean canHandleInTransaction(Event event, Context context) {
                return true;
            }

            @Override
            public void handle(Event event, Context context) {
                try (var statement = context.getConnection().createStatement();
                        var rows = statement.executeQuery("SELECT name, setting FROM pg_settings WHERE name IN"
                                + " ('lock_timeout', 'statement_timeout', 'idle_in_transaction_session_timeout')")) {
                    while (rows.next()) {
                        settings.put(rows.getString(1), rows.getString(2));
                    }
                } catch (SQLException ex) {
                    throw new IllegalStateException(ex);
                }
            }

            @Override
            public String getCallbackName() {
                return "session-settings";
            }
        };

        Migrations.configure(Flyway.configure())
                .dataSource(url, postgres.user(), postgres.password())
                .callbacks(recorder)
                .target("1")
                .load()
                .migrate();

        assertThat(settings)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "lock_timeout", "5000", "statement_timeout", "0", "idle_in_transaction_session_timeout", "0"));
    }

    @Test
    void aConcurrentBuildThatCannotGetItsLockFailsAndTheNextRunBuildsItAgain() throws SQLException {
        var flyway = Migrations.flyway(url, postgres.user(), postgres.password());
        Migrations.migrate(Flyway.configure()
                .configuration(flyway.getConfiguration())
                .target(String.valueOf(Integer.parseInt(FIRST_CONCURRENT_BUILD) - 1))
                .load());
        try (var writer = postgres.connect(url)) {
            // a transaction that wrote to orders and stays open: the concurrent build waits for it after it has
            // entered its index in the catalog, and its lock_timeout ends the wait
            writer.setAutoCommit(false);
            update(writer, "INSERT INTO product (id, name, stock, price) VALUES (gen_random_uuid(), 'p', 1, 1)");
            update(
                    writer,
                    "INSERT INTO orders (id, user_id, product_id, quantity) SELECT gen_random_uuid(), 'u', id,"
                            + " 1 FROM product");

            assertThatThrownBy(() -> Migrations.migrate(flyway))
                    .isInstanceOf(FlywayException.class)
                    .hasStackTraceContaining("lock timeout");
            assertThat(indexValid(writer)).as("the failed build's index").isFalse();

            writer.commit();
        }

        var result = Migrations.migrate(flyway);

        assertThat(result.success).isTrue();
        assertThat(flyway.info().pending()).isEmpty();
        try (var connection = postgres.connect(url)) {
            assertThat(indexValid(connection)).as("the index built again").isTrue();
        }
    }

    private static void update(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    /** Whether the index is valid; false when it is INVALID, fails when there is none. */
    private static boolean indexValid(Connection connection) throws SQLException {
        try (var statement = connection.createStatement();
                var rows = statement.executeQuery(
                        "SELECT indisvalid FROM pg_index WHERE indexrelid = '" + INDEX + "'::regclass")) {
            assertThat(rows.next()).as("index %s exists", INDEX).isTrue();
            return rows.getBoolean(1);
        }
    }
}
