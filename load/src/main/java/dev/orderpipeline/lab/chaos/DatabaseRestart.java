package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.infra.Postgres;
import java.time.Duration;
import java.util.Locale;

/**
 * PostgreSQL stopped (fast shutdown: sessions cut, open transactions rolled back, the port closed), left down for
 * {@code databaseDown}, started again on the same data directory and port.
 */
final class DatabaseRestart implements Fault {

    @Override
    public Duration planned(ChaosSettings settings) {
        return Duration.ofSeconds(10).plus(settings.databaseDown()).plus(settings.recovery());
    }

    @Override
    public void inject(FaultRun run) {
        var down = run.settings().databaseDown();
        run.once(
                FaultKind.DATABASE_RESTART,
                "PostgreSQL down " + down.toSeconds() + " s",
                "PostgreSQL restart",
                start -> {
                    var postgres = run.stack()
                            .postgres()
                            .filter(Postgres::isRestartable)
                            .orElseThrow(() -> new IllegalStateException(
                                    "the stack's PostgreSQL is not an embedded one with a data directory of its own"));
                    try {
                        postgres.stopServer();
                        var stopped = run.clock().now();
                        FaultRun.pause(down);
                        var starting = run.clock().now();
                        postgres.startServer();
                        return run.done(String.format(
                                Locale.ROOT,
                                "pg_ctl stop -m fast took %.1f s (sessions terminated, port closed), down %.1f s, start on"
                                        + " the same data directory and port took %.1f s",
                                stopped - start,
                                starting - stopped,
                                run.clock().now() - starting));
                    } catch (RuntimeException ex) {
                        // the later faults and the judge need it up
                        if (!postgres.isServerRunning()) {
                            try {
                                postgres.startServer();
                            } catch (RuntimeException again) {
                                ex.addSuppressed(again);
                            }
                        }
                        throw ex;
                    }
                });
    }
}
