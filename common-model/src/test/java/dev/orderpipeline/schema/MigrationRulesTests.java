package dev.orderpipeline.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MigrationRulesTests {

    @Test
    void everyMigrationAfterTheGrandfatheredOnesFollowsTheRules() {
        var scripts = MigrationScript.all();
        assertThat(scripts)
                .filteredOn(script -> script.version() <= MigrationRules.LAST_GRANDFATHERED_VERSION)
                .extracting(MigrationScript::name)
                .as(
                        "versions up to %d are the migrations that ran before the rules; a new one comes after them",
                        MigrationRules.LAST_GRANDFATHERED_VERSION)
                .containsExactlyInAnyOrderElementsOf(MigrationRules.GRANDFATHERED);
        assertThat(scripts)
                .filteredOn(script -> script.version() > MigrationRules.LAST_GRANDFATHERED_VERSION)
                .isNotEmpty()
                .allSatisfy(script -> assertThat(MigrationRules.violations(script))
                        .as(script.name())
                        .isEmpty());
    }

    @Test
    void theGrandfatheredMigrationsThatLockedOrdersWouldBeRefusedToday() {
        var scripts = MigrationScript.all();
        assertThat(scripts)
                .filteredOn(script -> script.version() == 2 || script.version() == 3)
                .hasSize(2)
                .allSatisfy(script -> assertThat(MigrationRules.violations(script))
                        .as(script.name())
                        .isNotEmpty());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ALTER TABLE orders ADD CONSTRAINT orders_x CHECK (quantity < 100)",
                "ALTER TABLE orders ADD CHECK (quantity < 100)",
                "ALTER TABLE orders ADD CONSTRAINT orders_x_fk FOREIGN KEY (x) REFERENCES product (id)",
                "ALTER TABLE payment ADD CONSTRAINT payment_order_unique UNIQUE (order_id)",
                "CREATE INDEX orders_x_idx ON orders (created_at)",
                "create unique index orders_x_idx on orders (created_at)",
                "DROP INDEX orders_product_status_idx",
                "ALTER TABLE orders ALTER COLUMN user_id SET NOT NULL",
                "ALTER TABLE orders ALTER COLUMN quantity TYPE bigint",
                "ALTER TABLE orders ALTER quantity SET DATA TYPE bigint",
                "VACUUM FULL orders",
                "CLUSTER orders USING orders_pk",
                "REINDEX TABLE orders",
                "SET lock_timeout = '1min'",
                "SET statement_timeout = 0",
            })
    void refusesWhatLocksABigTable(String statement) {
        var script = MigrationScript.of("V99__change.sql", true, "-- a change\n" + statement + ";\n");

        assertThat(MigrationRules.violations(script)).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ALTER TABLE orders ADD CONSTRAINT orders_x CHECK (quantity < 100) NOT VALID",
                "ALTER TABLE orders ADD CONSTRAINT orders_x_fk FOREIGN KEY (x) REFERENCES product (id) NOT VALID",
                "ALTER TABLE orders VALIDATE CONSTRAINT orders_y",
                "ALTER TABLE payment ADD CONSTRAINT payment_order_unique UNIQUE USING INDEX payment_order_idx",
                "ALTER TABLE orders ADD COLUMN note text",
                "CREATE TABLE coupon (id uuid NOT NULL); CREATE INDEX coupon_id_idx ON coupon (id);"
                        + " ALTER TABLE coupon ADD CONSTRAINT coupon_pk PRIMARY KEY (id)",
                "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " EXECUTE 'CREATE INDEX x ON orders (id)'; RETURN NULL; END $$",
            })
    void acceptsWhatLetsReadersAndWritersGoOn(String statements) {
        var script = MigrationScript.of("V99__change.sql", true, statements + ";\n");

        assertThat(MigrationRules.violations(script)).isEmpty();
    }

    @Test
    void aConstraintIsValidatedByALaterMigrationThanTheOneThatAddsIt() {
        var script = MigrationScript.of("V99__check.sql", true, """
                ALTER TABLE orders ADD CONSTRAINT orders_x CHECK (quantity < 100) NOT VALID;
                ALTER TABLE orders VALIDATE CONSTRAINT orders_x;
                """);

        assertThat(MigrationRules.violations(script)).singleElement().asString().contains("later migration");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // in a transaction, CONCURRENTLY fails
                "true | DROP INDEX CONCURRENTLY IF EXISTS x_idx; CREATE INDEX CONCURRENTLY x_idx ON orders (id)",
                // a retry after a failed build would keep its INVALID index
                "false | CREATE INDEX CONCURRENTLY IF NOT EXISTS x_idx ON orders (id)",
                "false | DROP INDEX CONCURRENTLY IF EXISTS y_idx; CREATE INDEX CONCURRENTLY x_idx ON orders (id)",
                // a retry from the start would add the column again
                "false | ALTER TABLE orders ADD COLUMN note text; DROP INDEX CONCURRENTLY IF EXISTS x_idx;"
                        + " CREATE INDEX CONCURRENTLY x_idx ON orders (note)",
            })
    void buildsAnIndexConcurrentlyOutsideATransactionAndRetriesAFailedBuild(boolean transactional, String sql) {
        var script = MigrationScript.of("V99__index.sql", transactional, sql);

        assertThat(MigrationRules.violations(script)).isNotEmpty();
    }

    @Test
    void acceptsAConcurrentBuildThatDropsWhatAFailedOneLeft() {
        var script = MigrationScript.of("V99__index.sql", false, """
                DROP INDEX CONCURRENTLY IF EXISTS x_idx;
                CREATE INDEX CONCURRENTLY IF NOT EXISTS x_idx ON orders (id) WHERE status = 'CREATED';
                """);

        assertThat(MigrationRules.violations(script)).isEmpty();
    }
}
