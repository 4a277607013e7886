package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.chaos.ChaosJudge.Criterion;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The faults the experiment can inject, by the names the command line and the report use: how long each is planned
 * to take with its recoveries (for the number of orders to prepare; a run that needs more stops its load), how it is
 * done, and what the judge checks for it beside the criteria of every run.
 */
public enum FaultKind {
    WORKER_KILL(
            "worker-kill",
            settings -> settings.recovery().plusSeconds(50).multipliedBy(settings.workerKills()),
            WorkerKills::killAndStart,
            WorkerKills::killsHitCartsMidSaga),
    WORKER_KILL_RESTART(
            "worker-kill-restart",
            settings -> settings.recovery().plusSeconds(50),
            WorkerKills::killAndRestartUnderItsName,
            WorkerKills::restartHitsCartsMidSaga),
    BROKER_RESTART(
            "broker-restart",
            settings -> settings.recovery().plusSeconds(15).plus(settings.brokerDown()),
            Restarts::broker,
            Restarts::unavailableWhileBrokerDown),
    DATABASE_RESTART(
            "database-restart",
            settings -> settings.recovery().plusSeconds(10).plus(settings.databaseDown()),
            Restarts::database),
    /** Not in the default run. */
    DATABASE_SESSIONS_KILLED(
            "database-sessions-killed",
            settings -> settings.recovery().plusSeconds(10).plus(settings.databaseDown()),
            DatabaseFaults::sessionsKilled),
    DATABASE_READ_ONLY(
            "database-read-only",
            settings -> settings.recovery().plusSeconds(5).plus(settings.databaseFault()),
            DatabaseFaults::readOnly),
    LOCK_TIMEOUT_STORM(
            "lock-timeout-storm",
            settings -> settings.recovery().plusSeconds(5).plus(settings.databaseFault()),
            DatabaseFaults::lockTimeoutStorm),
    REPLAY("replay", settings -> settings.recovery().plusSeconds(60), Replay::inject),
    POISON(
            "poison",
            settings -> settings.recovery().plusSeconds(10),
            Poison::inject,
            Poison::deadLetteredWithReason,
            Poison::decoysUntouched);

    private final String label;
    private final Function<ChaosSettings, Duration> planned;
    private final Consumer<FaultRun> inject;
    private final List<Criterion> criteria;

    FaultKind(
            String label, Function<ChaosSettings, Duration> planned, Consumer<FaultRun> inject, Criterion... criteria) {
        this.label = label;
        this.planned = planned;
        this.inject = inject;
        this.criteria = List.of(criteria);
    }

    public String label() {
        return label;
    }

    Duration planned(ChaosSettings settings) {
        return planned.apply(settings);
    }

    /**
     * Does the fault, once or more, handing each window to {@link FaultRun#recover} as it ends. A fault that cannot be
     * carried out hands over its window with the failure, and the run goes on so that the report shows what it left.
     */
    void inject(FaultRun run) {
        inject.accept(run);
    }

    List<Criterion> criteria() {
        return criteria;
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
