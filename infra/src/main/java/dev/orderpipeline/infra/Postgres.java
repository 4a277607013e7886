package dev.orderpipeline.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server to work on: one that is given by a JDBC URL of its maintenance database, or an embedded one
 * started from the zonky binaries when none is given. It hands out fresh databases, so tests and experiment runs
 * never see each other's rows.
 *
 * <p>An embedded server with a data directory of its own can be stopped and started again on the same data and port
 * ({@link #stopServer()}, {@link #startServer()}): the lab's chaos experiment takes the database away under load
 * that way.
 */
public final class Postgres implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Postgres.class);

    private final String adminUrl;
    private final String user;
    private final @Nullable String password;
    private final @Nullable Restart restart;
    private final List<String> created = new CopyOnWriteArrayList<>();
    private volatile @Nullable EmbeddedPostgres embedded;
    private volatile boolean dropCreatedOnClose;
    private boolean closed;

    /** How an embedded server was started, so that it can be started again the same way. */
    private record Restart(int port, java.nio.file.@Nullable Path dataDirectory, boolean stopOnJvmExit) {}

    private Postgres(
            String adminUrl,
            String user,
            @Nullable String password,
            @Nullable EmbeddedPostgres embedded,
            @Nullable Restart restart) {
        this.adminUrl = adminUrl;
        this.user = user;
        this.password = password;
        this.embedded = embedded;
        this.restart = restart;
    }

    /** Connects to a given server; {@code adminUrl} points at a database the user may run CREATE DATABASE from. */
    public static Postgres external(String adminUrl, String user, @Nullable String password) {
        var postgres = new Postgres(adminUrl, user, password, null, null);
        try (var connection = postgres.connect(adminUrl)) {
            log.debug("PostgreSQL {} reachable at {}", connection.getMetaData().getDatabaseProductVersion(), adminUrl);
            return postgres;
        } catch (SQLException ex) {
            throw new IllegalStateException("PostgreSQL at " + adminUrl + " is not reachable: " + ex.getMessage(), ex);
        }
    }

    /** Starts an embedded server on the given port (0 for any free one) with its data in {@code dataDirectory}. */
    public static Postgres embedded(int port, java.nio.file.@Nullable Path dataDirectory) {
        return embedded(port, dataDirectory, true);
    }

    /**
     * Like {@link #embedded(int, java.nio.file.Path)}; with {@code stopOnJvmExit} false the server gets no shutdown
     * hook of its own and stops only on {@link #close()}, so a launcher can stop it after the processes that use it
     * instead of at the same time.
     */
    public static Postgres embedded(int port, java.nio.file.@Nullable Path dataDirectory, boolean stopOnJvmExit) {
        var server = startEmbedded(port, dataDirectory, stopOnJvmExit);
        var url = server.getJdbcUrl("postgres", "postgres");
        log.info("Embedded PostgreSQL started on port {}", server.getPort());
        return new Postgres(
                url.substring(0, url.indexOf('?')),
                "postgres",
                null,
                server,
                new Restart(server.getPort(), dataDirectory, stopOnJvmExit));
    }

    private static EmbeddedPostgres startEmbedded(
            int port, java.nio.file.@Nullable Path dataDirectory, boolean stopOnJvmExit) {
        try {
            var builder = EmbeddedPostgres.builder()
                    .setRegisterShutdownHook(stopOnJvmExit)
                    .setPort(port)
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("shared_buffers", "256MB")
                    // durable as a server is, against the library's test defaults (-F, synchronous_commit off): what
                    // is measured on it includes the WAL flush of every commit, the cost that batching saves
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setCleanDataDirectory(dataDirectory == null);
            if (dataDirectory != null) {
                builder.setDataDirectory(dataDirectory);
            }
            return builder.start();
        } catch (IOException ex) {
            throw new UncheckedIOException("embedded PostgreSQL did not start", ex);
        }
    }

    /**
     * Stops the embedded server as an administrator would ({@code pg_ctl stop -m fast}: sessions are terminated,
     * their transactions rolled back, the data flushed); its port refuses connections until {@link #startServer()}.
     * Only for an embedded server with a data directory of its own, which the restart keeps.
     */
    public synchronized void stopServer() {
        requireRestartable();
        var running = embedded;
        if (running == null) {
            return;
        }
        embedded = null;
        try {
            running.close();
            log.info("Embedded PostgreSQL on port {} stopped", running.getPort());
        } catch (IOException ex) {
            throw new UncheckedIOException("embedded PostgreSQL did not stop", ex);
        }
    }

    /** Starts the embedded server again after {@link #stopServer()}, on the same port and data directory. */
    public synchronized void startServer() {
        var settings = requireRestartable();
        if (closed) {
            throw new IllegalStateException("this PostgreSQL was closed");
        }
        if (embedded != null) {
            return;
        }
        FreePorts.requireFree(settings.port(), "embedded PostgreSQL");
        embedded = startEmbedded(settings.port(), settings.dataDirectory(), settings.stopOnJvmExit());
        log.info("Embedded PostgreSQL started again on port {}", settings.port());
    }

    /** Whether this is an embedded server that {@link #stopServer()} and {@link #startServer()} can restart. */
    public boolean isRestartable() {
        var settings = restart;
        return settings != null && settings.dataDirectory() != null;
    }

    /** Whether the server accepts connections as far as this object knows: false between stop and start. */
    public boolean isServerRunning() {
        return restart == null || embedded != null;
    }

    private Restart requireRestartable() {
        var settings = restart;
        if (settings == null || settings.dataDirectory() == null) {
            throw new IllegalStateException("only an embedded PostgreSQL with a data directory of its own can be"
                    + " stopped and started again; this one is " + (settings == null ? "given" : "throw-away"));
        }
        return settings;
    }

    /**
     * The server tests use: the one named by {@code ORDERPIPELINE_TEST_POSTGRES_URL} (default the local server at
     * 127.0.0.1:5432, user postgres), or an embedded one when that is not reachable. Databases it creates are
     * dropped when the JVM exits.
     */
    public static synchronized Postgres forTests() {
        if (forTests == null) {
            var url = Objects.requireNonNullElse(
                    System.getenv("ORDERPIPELINE_TEST_POSTGRES_URL"), "jdbc:postgresql://127.0.0.1:5432/postgres");
            var user = Objects.requireNonNullElse(System.getenv("ORDERPIPELINE_TEST_POSTGRES_USER"), "postgres");
            var password = System.getenv("ORDERPIPELINE_TEST_POSTGRES_PASSWORD");
            Postgres chosen;
            try {
                chosen = external(url, user, password);
                log.info("Tests use PostgreSQL at {}", url);
            } catch (IllegalStateException ex) {
                log.info("No PostgreSQL at {} ({}); starting an embedded one", url, ex.getMessage());
                chosen = embedded(0, null);
            }
            chosen.dropCreatedOnClose = true;
            var server = chosen;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-test-cleanup"));
            forTests = server;
        }
        return forTests;
    }

    private static @Nullable Postgres forTests;

    /** Creates an empty database and returns its JDBC URL. */
    public String createDatabase(String prefix) {
        var name = (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12))
                .toLowerCase(Locale.ROOT);
        if (!name.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        try (var connection = connect(adminUrl);
                var statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException ex) {
            throw new IllegalStateException("could not create database " + name, ex);
        }
        created.add(name);
        return jdbcUrl(name);
    }

    /** Creates the database if it does not exist and returns its JDBC URL; it is kept on close. */
    public String ensureDatabase(String name) {
        try (var connection = connect(adminUrl);
                var statement = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            statement.setString(1, name);
            if (!statement.executeQuery().next()) {
                try (var create = connection.createStatement()) {
                    create.execute("CREATE DATABASE \"" + name.replace("\"", "") + "\"");
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not create database " + name, ex);
        }
        return jdbcUrl(name);
    }

    /** The JDBC URL of a database on this server. */
    public String jdbcUrl(String database) {
        var base = adminUrl.substring(0, adminUrl.lastIndexOf('/') + 1);
        return base + database;
    }

    public String user() {
        return user;
    }

    public @Nullable String password() {
        return password;
    }

    /** Whether this is an embedded server started by this process. */
    public boolean isEmbedded() {
        return restart != null;
    }

    public Connection connect(String url) throws SQLException {
        var properties = new Properties();
        properties.setProperty("user", user);
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("connectTimeout", "3");
        return DriverManager.getConnection(url, properties);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (dropCreatedOnClose && restart == null) {
            for (var name : created) {
                try (var connection = connect(adminUrl);
                        var statement = connection.createStatement()) {
                    statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                } catch (SQLException ex) {
                    log.warn("Could not drop test database {}", name, ex);
                }
            }
        }
        var running = embedded;
        embedded = null;
        if (running != null) {
            try {
                running.close();
            } catch (IOException ex) {
                log.warn("Embedded PostgreSQL did not stop cleanly", ex);
            }
        }
    }
}
