package dev.orderpipeline.lab.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.pipeline.Database;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sampler against the tests' PostgreSQL. */
class ResourceSamplerTests {

    @Test
    void readsTheWalWrittenEvenWhenItsSessionWasTerminatedDuringTheRun() throws SQLException {
        var postgres = Postgres.forTests();
        var database = new Database(postgres.createDatabase("sampler"), postgres.user(), postgres.password());
        var sampler = ResourceSampler.start(List.of(), database, Duration.ofSeconds(10));
        try (var connection = database.connect();
                var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE written (n integer)");
            statement.execute("INSERT INTO written SELECT generate_series(1, 10000)");
            // as a server restart does to every session: the sampler's own is gone when it stops
            statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND pid <> pg_backend_pid()");
        }

        var usage = sampler.stop();

        assertThat(usage.database().walBytes()).isNotNull().isGreaterThan(100_000L);
    }
}
