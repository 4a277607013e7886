package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.infra.Postgres;
import java.nio.file.Path;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/**
 * Options every lab command that touches a database shares: a server to create the lab's own on (otherwise the lab
 * starts an embedded one), and the directories the lab works in.
 */
public final class DatabaseOptions {

    @Option(
            order = 42,
            names = "--database-user",
            paramLabel = "USER",
            description = "User for --database-server (and drain's --database-url).")
    String databaseUser = "postgres";

    @Option(
            order = 43,
            names = "--database-password",
            paramLabel = "PASSWORD",
            description = "Password for --database-user; default: $ORDERPIPELINE_DATABASE_PASSWORD.",
            defaultValue = "${env:ORDERPIPELINE_DATABASE_PASSWORD}",
            showDefaultValue = Visibility.NEVER)
    @Nullable
    String databasePassword;

    @Option(
            order = 44,
            names = "--database-server",
            paramLabel = "JDBC-URL",
            description = "A PostgreSQL server to run on instead of an embedded one (a database it may run CREATE"
                    + " DATABASE from, e.g. jdbc:postgresql://127.0.0.1:5432/postgres): the lab drops and creates a"
                    + " database of its own there at each start (" + TargetOptions.LAB_DATABASE
                    + "; drain --ceiling-only's "
                    + CEILING_DATABASE + "). The embedded server flushes its WAL as a server does (fsync on); the"
                    + " report's databaseDurability says how the one run on was set.")
    @Nullable
    String databaseServer;

    /** The database the ceiling creates afresh on a {@code --database-server}. */
    public static final String CEILING_DATABASE = "orderpipeline_ceiling";

    @Option(
            order = 48,
            names = "--project-dir",
            paramLabel = "DIR",
            defaultValue = "${sys:lab.projectDir:-.}",
            description = "Repository root: the apps run from order-api/target and checkout-worker/target below it,"
                    + " the report's versions are read there; bin/lab sets it.",
            showDefaultValue = Visibility.NEVER)
    Path projectDirectory = Path.of(".");

    @Option(
            order = 49,
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Data and logs of the processes the lab starts, emptied at each start;"
                    + " default: .lab/lab below the project directory.",
            showDefaultValue = Visibility.NEVER)
    @Nullable
    Path workDirectory;

    public Path projectDirectory() {
        return projectDirectory.toAbsolutePath().normalize();
    }

    /** Where the processes the lab starts keep their data and logs. */
    public Path workDirectory() {
        return workDirectory != null
                ? workDirectory.toAbsolutePath().normalize()
                : projectDirectory().resolve(".lab").resolve("lab");
    }

    /** A database that runs already, reached as the given user with the given password. */
    public Database at(String jdbcUrl) {
        return new Database(jdbcUrl, databaseUser, databasePassword);
    }

    public @Nullable String server() {
        return databaseServer;
    }

    /**
     * The database {@code name} dropped (closing any session still on it) and created empty on {@code
     * --database-server}, a database there the user may run CREATE DATABASE from: every run starts clean, as it does
     * on the embedded server whose data directory is emptied.
     */
    public Database recreate(String serverUrl, String name) {
        if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        var server = Postgres.external(serverUrl, databaseUser, databasePassword);
        try (var connection = server.connect(serverUrl);
                var statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not recreate database " + name + " on " + serverUrl, ex);
        }
        return new Database(server.jdbcUrl(name), databaseUser, databasePassword);
    }

    /** What the lab starts on that server: the database {@code name}, with the given user and password. */
    public dev.orderpipeline.infra.StackConfig.Database.Server onServer(String server, String name) {
        return new dev.orderpipeline.infra.StackConfig.Database.Server(server, databaseUser, databasePassword, name);
    }
}
