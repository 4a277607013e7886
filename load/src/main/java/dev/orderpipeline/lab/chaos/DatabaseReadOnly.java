package dev.orderpipeline.lab.chaos;

import java.time.Duration;
import java.util.Locale;

/**
 * The database switched read-only for the apps' new sessions and their sessions terminated, as after a failover to
 * a standby that is not yet promoted, for {@code databaseFault}; switched back the same way. Writers get SQLSTATE
 * 25006.
 */
final class DatabaseReadOnly implements Fault {

    @Override
    public Duration planned(ChaosSettings settings) {
        return Duration.ofSeconds(5).plus(settings.databaseFault()).plus(settings.recovery());
    }

    @Override
    public void inject(FaultRun run) {
        var length = run.settings().databaseFault();
        run.once(
                FaultKind.DATABASE_READ_ONLY,
                "database read-only " + length.toSeconds() + " s",
                "database read-only",
                start -> {
                    var outcome = run.databaseFaults().readOnly(length);
                    return run.done(String.format(
                            Locale.ROOT,
                            "ALTER DATABASE ... SET default_transaction_read_only = on and %d sessions of the apps"
                                    + " terminated; %.1f s later RESET and %d sessions terminated again",
                            outcome.terminatedAtStart(),
                            length.toMillis() / 1000.0,
                            outcome.terminatedAtEnd()));
                });
    }
}
