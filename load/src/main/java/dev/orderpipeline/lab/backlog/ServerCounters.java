package dev.orderpipeline.lab.backlog;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL's own count around a run of the WAL syncs to disk by any process ({@code pg_stat_wal}). With {@code
 * synchronous_commit = on} every commit waits for a flush (several commits can share one), so flushes per commit tell
 * whether the writers really ran durably.
 */
public record ServerCounters(long walSyncs) {

    private static final String SETTINGS = """
            SELECT name, setting FROM pg_settings
            WHERE name IN ('synchronous_commit', 'fsync', 'wal_sync_method', 'shared_buffers', 'full_page_writes',
                           'max_wal_size', 'checkpoint_timeout')
            ORDER BY name
            """;

    /** Counters now; {@code null} when the server does not offer them (the lab then says n/a). */
    public static @Nullable ServerCounters read(DataSource dataSource) {
        // counters are flushed to shared memory at the end of a transaction or within a second after
        try (var connection = dataSource.getConnection();
                var statement = connection.createStatement()) {
            statement.execute("SELECT pg_stat_force_next_flush()");
            try (var rows = statement.executeQuery("SELECT wal_sync FROM pg_stat_wal")) {
                rows.next();
                return new ServerCounters(rows.getLong(1));
            }
        } catch (SQLException ex) {
            return null;
        }
    }

    /** What happened between two readings. */
    public ServerCounters since(ServerCounters earlier) {
        return new ServerCounters(walSyncs - earlier.walSyncs);
    }

    /** The settings that decide how fast a commit can be, as a new session of this database gets them. */
    public static Map<String, String> settings(DataSource dataSource) {
        var settings = new LinkedHashMap<String, String>();
        try (var connection = dataSource.getConnection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery(SETTINGS)) {
            while (rows.next()) {
                settings.put(rows.getString(1), rows.getString(2));
            }
        } catch (SQLException ex) {
            return Map.of();
        }
        return settings;
    }
}
