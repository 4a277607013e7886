package dev.orderpipeline.schema;

import java.util.EnumSet;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.CoreErrorCode;
import org.flywaydb.core.api.ErrorCode;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.logging.Log;
import org.flywaydb.core.api.logging.LogFactory;
import org.flywaydb.core.api.output.MigrateResult;
import org.jspecify.annotations.Nullable;

/**
 * How the schema's migrations run, for every runner of Flyway: each app at its start (its {@code
 * FlywayMigrationStrategy} is {@link #migrate}), {@code bin/migrate} ({@link Migrate}), the lab and the tests ({@link
 * #flyway}).
 *
 * <p>A migration runs on sessions of its own, never on an app's pool: the apps' sessions carry a statement timeout
 * (5 s for order-api) that would cancel an index build on a big table half way, and a setting changed on a pooled
 * session would stay with it for the app's requests. Each session Flyway opens starts with {@link #SESSION_SETTINGS}.
 */
public final class Migrations {

    /**
     * Run on each session Flyway opens, before anything else.
     *
     * <ul>
     *   <li>{@code lock_timeout}: a statement that must wait longer for a lock fails instead of queueing. A waiting
     *       ALTER TABLE holds every later reader and writer of its table behind it, so a migration that cannot get its
     *       lock fails fast and is retried at the next start (or the next {@code bin/migrate}); a concurrent index
     *       build waits under it for the transactions open on its table too.
     *   <li>{@code statement_timeout} off: an index build or a constraint validation on a big table takes as long as
     *       it takes, and holds no lock that stops readers or writers meanwhile (the rules in docs/database.md).
     *   <li>{@code idle_in_transaction_session_timeout} off: Flyway itself holds its sessions between statements.
     * </ul>
     */
    static final String SESSION_SETTINGS =
            "SET lock_timeout = '5s'; SET statement_timeout = 0; SET idle_in_transaction_session_timeout = 0";

    /**
     * Flyway's lock on its history table as a session-level advisory lock, not its default transactional one: the
     * transaction that holds the latter stays open while a migration runs, and every CREATE INDEX CONCURRENTLY waits
     * for the transactions open at its start, so it would wait for Flyway's own until its lock_timeout.
     */
    private static final Map<String, String> POSTGRESQL = Map.of("flyway.postgresql.transactional.lock", "false");

    /**
     * What may stand between a database and its migration when a version failed outside a transaction: the failure
     * itself, and the versions after it, still pending.
     */
    private static final EnumSet<CoreErrorCode> RETRIABLE = EnumSet.of(
            CoreErrorCode.FAILED_VERSIONED_MIGRATION, CoreErrorCode.RESOLVED_VERSIONED_MIGRATION_NOT_APPLIED);

    /** Flyway's logging, which goes where the runner's does (SLF4J in the apps, java.util.logging in bin/migrate). */
    private static final Log log = LogFactory.getLog(Migrations.class);

    private Migrations() {}

    /** Gives a configuration the migration sessions' settings; the locations stay Flyway's default, db/migration. */
    public static FluentConfiguration configure(FluentConfiguration configuration) {
        return configuration.initSql(SESSION_SETTINGS).configuration(POSTGRESQL);
    }

    /** Flyway for the database at {@code url}, on connections of its own. */
    public static Flyway flyway(String url, String user, @Nullable String password) {
        return configure(Flyway.configure()).dataSource(url, user, password).load();
    }

    /**
     * Migrates the database {@code flyway} is configured for to the latest version, on sessions with {@link
     * #SESSION_SETTINGS}.
     *
     * <p>A migration in a transaction that fails leaves nothing behind. One outside a transaction (a concurrent index
     * build) that fails is recorded as failed, and Flyway refuses to go on until someone repairs the history; the
     * migration rules make such a script safe to run again from its start, so the failure is forgotten here and the
     * version runs again, as a migration in a transaction would. Any other disagreement between the history and the
     * scripts (a changed checksum, a missing script) still stops the migration.
     */
    public static MigrateResult migrate(Flyway flyway) {
        var configured = configure(Flyway.configure(flyway.getConfiguration().getClassLoader())
                        .configuration(flyway.getConfiguration()))
                .load();
        var validation = configured.validateWithResult();
        var failed = validation.invalidMigrations.stream()
                .filter(migration -> code(migration.errorDetails.errorCode) == CoreErrorCode.FAILED_VERSIONED_MIGRATION)
                .toList();
        if (!failed.isEmpty()
                && validation.invalidMigrations.stream()
                        .allMatch(migration -> RETRIABLE.contains(code(migration.errorDetails.errorCode)))) {
            failed.forEach(migration -> log.warn("Version " + migration.version + " (" + migration.description
                    + ") failed before; running it again"));
            configured.repair();
        }
        return configured.migrate();
    }

    private static @Nullable CoreErrorCode code(ErrorCode code) {
        return code instanceof CoreErrorCode core ? core : null;
    }
}
