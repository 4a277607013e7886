package dev.orderpipeline.lab.chaos;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The faults the experiment can inject, by the names the command line and the report use. */
public enum FaultKind {
    WORKER_KILL("worker-kill", new WorkerKill()),
    WORKER_KILL_RESTART("worker-kill-restart", new WorkerKillRestart()),
    BROKER_RESTART("broker-restart", new BrokerRestart()),
    DATABASE_RESTART("database-restart", new DatabaseRestart()),
    /** Not in the default run. */
    DATABASE_SESSIONS_KILLED("database-sessions-killed", new DatabaseSessionsKilled()),
    DATABASE_READ_ONLY("database-read-only", new DatabaseReadOnly()),
    LOCK_TIMEOUT_STORM("lock-timeout-storm", new LockTimeoutStorm()),
    REPLAY("replay", new Replay()),
    POISON("poison", new Poison());

    private final String label;
    private final Fault fault;

    FaultKind(String label, Fault fault) {
        this.label = label;
        this.fault = fault;
    }

    public String label() {
        return label;
    }

    Fault fault() {
        return fault;
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
