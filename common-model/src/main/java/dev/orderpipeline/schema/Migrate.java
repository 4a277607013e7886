package dev.orderpipeline.schema;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * Migrates a database to the schema's latest version and exits: the migration as a step of its own, before the apps
 * start with theirs switched off ({@code spring.flyway.enabled=false}). {@code bin/migrate} runs it, and so does the
 * compose stack's {@code migrate} service.
 *
 * <pre>Migrate &lt;jdbc-url&gt; [user [target-version]]</pre>
 *
 * The user defaults to postgres; a target version stops there instead of at the latest (the lab migrates a database
 * of the first version's shape that way); the password, if any, is read from the environment variable {@code PGPASSWORD}, so
 * that it never shows in a process list. Exits 0 when the database is at the latest version, 1 when a migration
 * failed (a lock not had within the sessions' lock_timeout: run it again), 2 on a wrong command line.
 */
public final class Migrate {

    private Migrate() {}

    public static void main(String[] args) {
        if (args.length < 1 || args.length > 3 || !args[0].startsWith("jdbc:postgresql:")) {
            System.err.println(
                    "usage: Migrate <jdbc:postgresql://host:port/database> [user [target-version]]   (password: PGPASSWORD)");
            System.exit(2);
        }
        var user = args.length > 1 ? args[1] : "postgres";
        var configuration =
                Migrations.configure(Flyway.configure()).dataSource(args[0], user, System.getenv("PGPASSWORD"));
        if (args.length > 2) {
            configuration.target(args[2]);
        }
        var flyway = configuration.load();
        try {
            var result = Migrations.migrate(flyway);
            System.out.printf(
                    "%s: %d migrations applied, schema at version %s%n",
                    result.database,
                    result.migrationsExecuted,
                    result.targetSchemaVersion != null
                            ? result.targetSchemaVersion
                            : flyway.info().current().getVersion());
        } catch (FlywayException ex) {
            System.err.println("migration failed: " + ex.getMessage());
            System.exit(1);
        }
    }
}
