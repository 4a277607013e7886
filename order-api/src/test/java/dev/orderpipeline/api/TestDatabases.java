package dev.orderpipeline.api;

import dev.orderpipeline.infra.Postgres;
import org.springframework.test.context.DynamicPropertyRegistry;

/** Points a test context at a database of the tests' PostgreSQL, with its credentials. */
public final class TestDatabases {

    private TestDatabases() {}

    /** {@code spring.datasource.*} for the database at {@code url}, made by {@link Postgres#createDatabase}. */
    public static void use(DynamicPropertyRegistry registry, String url) {
        registry.add("spring.datasource.url", () -> url);
        registry.add("spring.datasource.username", () -> Postgres.forTests().user());
        var password = Postgres.forTests().password();
        if (password != null) {
            registry.add("spring.datasource.password", () -> password);
        }
    }
}
