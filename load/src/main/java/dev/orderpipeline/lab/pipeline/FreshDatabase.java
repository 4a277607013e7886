package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.infra.Postgres;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * A database of the lab's own on a given PostgreSQL server, dropped and created again at each start so that every
 * run starts clean, as it does on the embedded server whose data directory is emptied.
 */
public final class FreshDatabase {

    private FreshDatabase() {}

    /**
     * Drops {@code name} on the server (closing any session still on it) and creates it empty; returns its JDBC URL.
     *
     * @param serverUrl a database on the server the user may run CREATE DATABASE from, e.g. {@code postgres}
     */
    public static String recreate(String serverUrl, String user, @Nullable String password, String name) {
        if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        var server = Postgres.external(serverUrl, user, password);
        try (var connection = server.connect(serverUrl);
                var statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not recreate database " + name + " on " + serverUrl, ex);
        }
        return server.jdbcUrl(name);
    }
}
