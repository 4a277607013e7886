package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.chaos.ChaosJudge.Findings;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The faults, by the names the command line and report use: the planned length of a window (a kill costs the group
 * session; the freeze's plan keeps the stock of its run from selling out before the takeover is measured), the
 * injection, the criteria.
 */
public enum FaultKind {
    WORKER_KILL(
            "worker-kill",
            "kill -9 #",
            settings -> settings.recovery().plus(settings.groupSession()).plusSeconds(5),
            ProcessFaults::killAndStart,
            ChaosCriteria::cartsMidSaga),
    WORKER_KILL_RESTART(
            "worker-kill-restart",
            "kill -9 and restart under its name",
            settings -> settings.recovery().plus(settings.groupSession()).plusSeconds(5),
            ProcessFaults::killAndRestartUnderItsName,
            ChaosCriteria::cartsMidSaga),
    BROKER_RESTART(
            "broker-restart",
            "broker restart",
            settings -> settings.recovery().plusSeconds(15).plus(settings.brokerDown()),
            DependencyFaults::broker,
            ChaosCriteria::unavailableWhileBrokerDown),
    DATABASE_RESTART(
            "database-restart",
            "PostgreSQL restart",
            settings -> settings.recovery().plusSeconds(10).plus(settings.databaseDown()),
            DependencyFaults::database),
    /** Not in the default run: it needs a cluster (--brokers 3). */
    BROKER_KILL(
            "broker-kill",
            "broker kill -9",
            settings -> settings.recovery().plusSeconds(40).plus(settings.brokerDown()),
            ProcessFaults::killTheBusiestLeader,
            ChaosCriteria::onlyUnavailableWhileABrokerIsLost,
            ChaosCriteria::decisionsResume,
            ChaosCriteria::killedBrokerRejoinsTheIsr),
    WORKER_FREEZE(
            "worker-freeze",
            "worker frozen",
            settings -> settings.recovery().plusSeconds(40).plus(settings.workerFreeze()),
            ProcessFaults::freezeMidTransaction,
            ChaosCriteria::decisionsResume,
            ChaosCriteria::frozenTransactionEnded,
            ChaosCriteria::orderCreationUnblockedWhileFrozen),
    DATABASE_READ_ONLY(
            "database-read-only",
            "database read-only",
            settings -> settings.recovery().plusSeconds(5).plus(settings.databaseFault()),
            DependencyFaults::readOnly),
    LOCK_TIMEOUT_STORM(
            "lock-timeout-storm",
            "lock-timeout storm",
            settings -> settings.recovery().plusSeconds(5).plus(settings.databaseFault()),
            DependencyFaults::lockTimeoutStorm),
    REPLAY("replay", "replay from offset 0", settings -> settings.recovery().plusSeconds(60), TopicFaults::replay),
    POISON(
            "poison",
            "poison records",
            settings -> settings.recovery().plusSeconds(10),
            TopicFaults::poison,
            ChaosCriteria::deadLetteredWithReason,
            ChaosCriteria::decoysUntouched);

    /** The faults of a run that names none: all but those that need a cluster or a run of their own. */
    static final List<FaultKind> BY_DEFAULT = Arrays.stream(values())
            .filter(kind -> kind != BROKER_KILL && kind != WORKER_FREEZE)
            .toList();

    /** Does window {@code number} (from 1) of the fault; one that throws shows the failure and the run goes on. */
    @FunctionalInterface
    interface Injection {
        Done inject(FaultRun run, int number, double start);
    }

    @FunctionalInterface
    interface FaultCriterion {
        Optional<Check> judge(Findings findings, FaultKind kind);
    }

    private final String label;
    private final String windowName;
    private final Function<ChaosSettings, Duration> plannedWindow;
    final Injection injection;
    final List<FaultCriterion> criteria;

    FaultKind(
            String label,
            String windowName,
            Function<ChaosSettings, Duration> plannedWindow,
            Injection injection,
            FaultCriterion... criteria) {
        this.label = label;
        this.windowName = windowName;
        this.plannedWindow = plannedWindow;
        this.injection = injection;
        this.criteria = List.of(criteria);
    }

    public String label() {
        return label;
    }

    int windows(ChaosSettings settings) {
        return this == WORKER_KILL ? settings.workerKills() : 1;
    }

    String windowName(int number) {
        return this == WORKER_KILL ? windowName + number : windowName;
    }

    /** One window and the recovery after it. */
    Duration plannedWindow(ChaosSettings settings) {
        return plannedWindow.apply(settings);
    }

    Duration planned(ChaosSettings settings) {
        return plannedWindow(settings).multipliedBy(windows(settings));
    }

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
