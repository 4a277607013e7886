package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded PostgreSQL: durable as a server is, and taken away and brought back on the same port and data, as the
 * chaos experiment does.
 */
class PostgresRestartTests {

    @TempDir
    Path dataDirectory;

    @Test
    void keepsCommittedRowsAndItsPortAcrossAStopAndAStart() throws Exception {
        try (var postgres = Postgres.embedded(FreePorts.one(), dataDirectory, false)) {
            var url = postgres.ensureDatabase("restart_test");
            try (var connection = postgres.connect(url);
                    var statement = connection.createStatement()) {
                statement.execute("CREATE TABLE kept (id integer PRIMARY KEY)");
                statement.execute("INSERT INTO kept VALUES (1), (2), (3)");
            }
            assertThat(postgres.isRestartable()).isTrue();

            postgres.stopServer();

            assertThat(postgres.isServerRunning()).isFalse();
            assertThatThrownBy(() -> postgres.connect(url).close()).isInstanceOf(SQLException.class);

            postgres.startServer();

            assertThat(postgres.isServerRunning()).isTrue();
            try (var connection = postgres.connect(url);
                    var statement = connection.createStatement();
                    var rows = statement.executeQuery("SELECT count(*) FROM kept")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(3);
            }
        }
    }

    @Test
    void flushesItsWalAtEveryCommitAsAServerDoes() throws Exception {
        try (var postgres = Postgres.embedded(FreePorts.one(), dataDirectory, false);
                var connection = postgres.connect(postgres.ensureDatabase("durability_test"));
                var statement = connection.createStatement();
                var rows = statement.executeQuery(
                        "SELECT current_setting('fsync'), current_setting('synchronous_commit')")) {
            rows.next();
            assertThat(rows.getString(1)).as("fsync").isEqualTo("on");
            assertThat(rows.getString(2)).as("synchronous_commit").isEqualTo("on");
        }
    }

    @Test
    void refusesToRestartAServerItDoesNotOwnTheDataOf() {
        // a given server, or a throw-away embedded one when there is none: neither may be restarted
        var shared = Postgres.forTests();
        assertThat(shared.isRestartable()).isFalse();
        assertThatThrownBy(shared::stopServer).isInstanceOf(IllegalStateException.class);
    }
}
