package dev.orderpipeline.lab.chaos;

import java.time.Duration;
import java.util.Locale;

/**
 * Not in the default run: every 200 ms for {@code databaseDown}, {@code pg_terminate_backend} on every session of
 * the apps, PostgreSQL itself staying up and accepting new connections, as a failover or a proxy that drops
 * connections does: transactions die half-way, new connections work until they are terminated in turn.
 */
final class DatabaseSessionsKilled implements Fault {

    private static final Duration PERIOD = Duration.ofMillis(200);

    @Override
    public Duration planned(ChaosSettings settings) {
        return Duration.ofSeconds(10).plus(settings.databaseDown()).plus(settings.recovery());
    }

    @Override
    public void inject(FaultRun run) {
        run.once(FaultKind.DATABASE_SESSIONS_KILLED, "database sessions killed", "database sessions killed", start -> {
            var terminated = run.database().terminateSessions(run.settings().databaseDown(), PERIOD);
            return run.done(String.format(
                    Locale.ROOT,
                    "pg_terminate_backend on every session of the apps every %d ms for %.1f s: %d sessions"
                            + " terminated",
                    PERIOD.toMillis(),
                    run.clock().now() - start,
                    terminated));
        });
    }
}
