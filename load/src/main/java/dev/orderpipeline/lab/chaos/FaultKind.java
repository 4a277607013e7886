package dev.orderpipeline.lab.chaos;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The faults the experiment injects, by the names the command line and the report use. */
public enum FaultKind {
    /** kill -9 of a checkout-worker, restarted at once as a supervisor would; the group rebalances. */
    WORKER_KILL("worker-kill"),
    /**
     * kill -9 of the checkout-worker that owns most of the load's products, started again at once under the same name
     * (its static group membership); measured from the kill to the first decision on its partitions.
     */
    WORKER_KILL_RESTART("worker-kill-restart"),
    /** The broker stopped, left down, started again on the same data. */
    BROKER_RESTART("broker-restart"),
    /** PostgreSQL stopped (fast shutdown: sessions cut), left down, started again on the same data and port. */
    DATABASE_RESTART("database-restart"),
    /**
     * Not in the default run: the apps' database sessions terminated over and over (as a failover, or a proxy that
     * drops connections, does), while PostgreSQL itself stays up and accepts new ones.
     */
    DATABASE_SESSIONS_KILLED("database-sessions-killed"),
    /**
     * The database switched read-only for the apps' new sessions and their sessions terminated, as after a failover
     * to a standby that is not yet promoted; switched back the same way. Writers get SQLSTATE 25006.
     */
    DATABASE_READ_ONLY("database-read-only"),
    /**
     * The apps' sessions given a short {@code lock_timeout} while a lab session keeps taking the load's product rows
     * {@code FOR UPDATE}, a few hundred milliseconds at a time: writers get SQLSTATE 55P03.
     */
    LOCK_TIMEOUT_STORM("lock-timeout-storm"),
    /** The whole command topic read again from offset 0 by a worker in a consumer group of its own. */
    REPLAY("replay"),
    /** Records that are not valid checkout commands written to the command topic among the real ones. */
    POISON("poison");

    private final String label;

    FaultKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The kind a label names, e.g. {@code broker-restart}. */
    public static FaultKind named(String label) {
        var wanted = label.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(kind -> kind.label.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fault '" + label + "'; known: "
                        + Arrays.stream(values()).map(FaultKind::label).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return label;
    }
}
