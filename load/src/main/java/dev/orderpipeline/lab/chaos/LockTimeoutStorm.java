package dev.orderpipeline.lab.chaos;

import java.time.Duration;
import java.util.Locale;

/**
 * The apps' sessions given a 100 ms {@code lock_timeout} for {@code databaseFault} while a lab session keeps taking
 * the load's product rows {@code FOR UPDATE}, 300 ms at a time: writers get SQLSTATE 55P03.
 */
final class LockTimeoutStorm implements Fault {

    @Override
    public Duration planned(ChaosSettings settings) {
        return Duration.ofSeconds(5).plus(settings.databaseFault()).plus(settings.recovery());
    }

    @Override
    public void inject(FaultRun run) {
        var length = run.settings().databaseFault();
        run.once(
                FaultKind.LOCK_TIMEOUT_STORM,
                "lock-timeout storm " + length.toSeconds() + " s",
                "lock-timeout storm",
                start -> {
                    var outcome = run.databaseFaults().lockTimeoutStorm(length, run.products());
                    return run.done(String.format(
                            Locale.ROOT,
                            "ALTER DATABASE ... SET lock_timeout = '100ms' and %d sessions of the apps terminated; the lab"
                                    + " held the %d products' rows FOR UPDATE %d times for %d ms (%d ms apart, waited up to"
                                    + " %d ms for them); then RESET and %d sessions terminated again",
                            outcome.terminatedAtStart(),
                            run.products().size(),
                            outcome.locks().holds(),
                            DatabaseFaults.LOCK_HOLD.toMillis(),
                            DatabaseFaults.LOCK_GAP.toMillis(),
                            outcome.locks().longestWaitMillis(),
                            outcome.terminatedAtEnd()));
                });
    }
}
