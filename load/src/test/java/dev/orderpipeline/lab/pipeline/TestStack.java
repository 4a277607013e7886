package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.infra.StackConfig;
import java.nio.file.Path;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The stack of an end-to-end test: the project's packaged apps on a database of their own on the tests' PostgreSQL,
 * a broker started from the jars, every port free.
 *
 * @param config the stack, one API, the lab off; tests add what they need
 * @param jdbcUrl the test's database
 * @param postgres the server that holds it
 */
public record TestStack(StackConfig config, String jdbcUrl, Postgres postgres) {

    /** The repository root: failsafe runs in the module directory. */
    public static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    /** A stack with {@code workers} workers on a new database named after {@code database}. */
    public static TestStack create(Path workDirectory, String database, int workers) {
        return create(workDirectory, database, workers, 1);
    }

    /** As {@link #create(Path, String, int)}, on {@code brokers} brokers (a KRaft cluster when more than one). */
    public static TestStack create(Path workDirectory, String database, int workers, int brokers) {
        var postgres = Postgres.forTests();
        var jdbcUrl = postgres.createDatabase(database);
        var ports = FreePorts.several(2);
        var config = StackConfig.defaults(PROJECT)
                .withWorkDirectory(workDirectory)
                .withDatabase(new StackConfig.Database.Existing(jdbcUrl, postgres.user(), postgres.password()))
                .withBroker(StackConfig.Broker.FromJars.onFreePorts(brokers, ports))
                .withApps(ports.get(0), workers, ports.get(1));
        return new TestStack(config, jdbcUrl, postgres);
    }

    /** The test's database, for checking what the stack left in it. */
    public PGSimpleDataSource dataSource() {
        var database = new PGSimpleDataSource();
        database.setURL(jdbcUrl);
        database.setUser(postgres.user());
        if (postgres.password() != null) {
            database.setPassword(postgres.password());
        }
        return database;
    }
}
