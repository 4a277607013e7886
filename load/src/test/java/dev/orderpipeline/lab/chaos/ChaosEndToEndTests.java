package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.StackConfig;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each fault of the chaos experiment, end to end, on one stack started from the packaged jars (an embedded
 * PostgreSQL that can be restarted, a broker from the Kafka jars, one API, two workers): a small run of the
 * experiment, on products of its own, judged by the database and the topics. Small on purpose: a few thousand
 * checkouts at 20/s (the freeze at 40/s, so that a freeze soon catches a transaction open), so the class stays within
 * a few minutes on two cores. The faults share two runs, one after the
 * other as the experiment's default run has them, each after the one before has settled: the workers' faults, the
 * replay and poison (poison last: a replay after it would dead-letter it again) in a run with carts, so that the kills
 * cut through sagas; the broker's and the database's faults in a run of single-product checkouts, the broker first,
 * as its outage needs the load. Each test judges its fault's phase of the shared run, made once by the first test
 * that needs it. The freeze has a run of its own, and the broker kill a three-broker stack of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChaosEndToEndTests {

    /** The repository root: failsafe runs in the module directory. */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    /**
     * A killed member holds its partitions until its session expires (45 s by default); a shorter session keeps the
     * kill test short. The experiment itself runs with the defaults.
     */
    private static final List<String> SHORT_SESSIONS =
            List.of("--spring.kafka.consumer.properties.session.timeout.ms=10000");

    /** The broker's and the database's faults, single-product checkouts only. */
    private static final List<FaultKind> DEPENDENCY_FAULTS = List.of(
            FaultKind.BROKER_RESTART,
            FaultKind.DATABASE_RESTART,
            FaultKind.DATABASE_READ_ONLY,
            FaultKind.LOCK_TIMEOUT_STORM);

    /**
     * Two kills (the second restarted under its name), a replay of every topic and poison on every topic; half the
     * checkouts are carts so that the kills find sagas in flight.
     */
    private static final List<FaultKind> KILLS_REPLAY_AND_POISON =
            List.of(FaultKind.WORKER_KILL, FaultKind.WORKER_KILL_RESTART, FaultKind.REPLAY, FaultKind.POISON);

    private StackTarget target;

    /** The shared runs made so far, by their faults. */
    private final Map<List<FaultKind>, SharedRun> sharedRuns = new HashMap<>();

    /**
     * A run that several tests judge, with the pids the workers had before it; a run that threw is not made again by
     * the next test that needs it.
     */
    private record SharedRun(
            List<Long> workerPidsBefore,
            @Nullable ChaosRun run,
            @Nullable RuntimeException failure) {

        ChaosRun get() {
            if (failure != null) {
                throw new AssertionError("the shared run failed", failure);
            }
            return Objects.requireNonNull(run);
        }
    }

    @BeforeAll
    void startThePipeline(@TempDir Path workDirectory) throws IOException {
        var ports = FreePorts.several(4);
        var config = StackConfig.defaults(snapshotOfTheJars(workDirectory.resolve("project")))
                .withWorkDirectory(workDirectory)
                .withDatabase(new StackConfig.Database.Embedded(ports.get(0)))
                .withBroker(new StackConfig.Broker.FromJars(ports.get(1), ports.get(2)))
                .withApps(ports.get(3), 2, twoFreePorts(ports))
                .withAppOptions(List.of(), SHORT_SESSIONS);
        target = StackTarget.start(config, 1, Duration.ofSeconds(30));
    }

    @AfterAll
    void stopThePipeline() {
        if (target != null) {
            target.close();
        }
    }

    @Test
    @Order(1)
    void aWorkerKilledWithSigkillLosesNoCheckoutAndDecrementsNothingTwice() {
        var shared = shared(KILLS_REPLAY_AND_POISON, 0.5);
        var run = shared.get();
        var workers = target.stack().workers();

        assertHolds(run);
        assertThat(workers.getFirst().isAlive()).isTrue();
        assertThat(workers.getFirst().pid())
                .isNotEqualTo(shared.workerPidsBefore().getFirst());
        assertThat(run.faults())
                .filteredOn(fault -> fault.kind() == FaultKind.WORKER_KILL)
                .singleElement()
                .satisfies(fault -> assertThat(fault.detail()).contains("SIGKILL", "exit code 137"));
        assertThat(run.phases()).hasSize(1 + KILLS_REPLAY_AND_POISON.size());
        assertBooksBalance(run);
    }

    @Test
    @Order(2)
    void whileTheBrokerIsDownTheApiAnswers503WithRetryAfterAndTheRetriesSucceedOnce() {
        var run = shared(DEPENDENCY_FAULTS, 0.0).get();

        assertHolds(run);
        var outage = phase(run, FaultKind.BROKER_RESTART);
        assertThat(outage.count("503")).isPositive();
        assertThat(outage.unavailableWithoutRetryAfter()).isZero();
        assertThat(outage.serverErrors()).isZero();
        var retries = run.retries();
        assertThat(retries.afterUnavailable()).isPositive();
        assertThat(retries.endedAccepted() + retries.endedConflict()).isEqualTo(retries.ordersRetried());
        assertThat(retries.retriedDecided()).isEqualTo(retries.ordersRetried());
        assertThat(retries.retriedPaidMoreThanOnce()).isZero();
        assertBooksBalance(run);
    }

    @Test
    @Order(3)
    void aPostgresqlRestartUnderLoadLeavesEveryAcceptedCheckoutDecidedOnce() {
        var run = shared(DEPENDENCY_FAULTS, 0.0).get();

        assertHolds(run);
        var outage = phase(run, FaultKind.DATABASE_RESTART);
        assertThat(outage.serverErrors()).isZero();
        assertThat(outage.caughtUpAfter()).isNotNull();
        assertThat(Objects.requireNonNull(target.stack().postgres().orElseThrow())
                        .isServerRunning())
                .isTrue();
        assertBooksBalance(run);
    }

    @Test
    @Order(4)
    void replayingTheWholeCommandTopicThroughAFreshGroupChangesNothing() {
        var run = shared(KILLS_REPLAY_AND_POISON, 0.5).get();

        assertHolds(run);
        assertThat(run.faults())
                .filteredOn(fault -> fault.kind() == FaultKind.REPLAY)
                .singleElement()
                .satisfies(fault -> assertThat(fault.detail()).contains("from offset 0"));
        // every command the replay read again was reported as a duplicate, none decided again
        assertThat(run.topics().duplicateResults()).isPositive();
        assertBooksBalance(run);
        try (var topics = new TopicReader(target.bootstrapServers())) {
            var end = topics.endOffsets(Topics.CHECKOUT_COMMANDS);
            assertThat(end.values().stream().mapToLong(Long::longValue).sum()).isPositive();
        }
    }

    @Test
    @Order(5)
    void poisonRecordsAllGoToTheDeadLetterTopicWithTheirReasonAndGoodCheckoutsStillComplete() {
        var run = shared(KILLS_REPLAY_AND_POISON, 0.5).get();

        assertHolds(run);
        assertThat(run.poison()).hasSize(PoisonKind.values().length).allSatisfy(poison -> {
            assertThat(poison.deadLettered()).as(poison.kind().label()).isEqualTo(poison.sent());
            assertThat(poison.reasons()).as(poison.kind().label()).doesNotContainKey(TopicEvidence.NO_REASON);
        });
        assertThat(run.topics().untaggedDeadLetters()).isZero();
        assertThat(Objects.requireNonNull(run.decoy()).untouched()).isTrue();
        // checkouts accepted after the poison was written were decided
        var after = phase(run, FaultKind.POISON);
        assertThat(after.accepted()).isPositive();
        assertThat(after.maxTimeToFinal()).isNotNull();
        assertBooksBalance(run);
    }

    /**
     * The database read-only: the workers' writes fail with 25006 and must be redelivered until it is writable again,
     * not dead-lettered; the API keeps answering without a 500.
     */
    @Test
    @Order(7)
    void aReadOnlyDatabaseDeadLettersNoValidCommandAndEveryCheckoutIsDecidedOnceItIsWritable() {
        var run = shared(DEPENDENCY_FAULTS, 0.0).get();

        assertHolds(run);
        var fault = phase(run, FaultKind.DATABASE_READ_ONLY);
        assertThat(fault.validDeadLettered()).isZero();
        assertThat(fault.serverErrors()).isZero();
        assertThat(run.faults())
                .filteredOn(window -> window.kind() == FaultKind.DATABASE_READ_ONLY)
                .singleElement()
                .satisfies(window -> assertThat(window.detail()).contains("default_transaction_read_only"));
        assertWritable();
        assertBooksBalance(run);
    }

    /** Lock timeouts (55P03) are transient: the commands that hit them are redelivered, none dead-lettered. */
    @Test
    @Order(8)
    void aStormOfLockTimeoutsDeadLettersNoValidCommandAndDecrementsNothingTwice() {
        var run = shared(DEPENDENCY_FAULTS, 0.0).get();

        assertHolds(run);
        assertThat(phase(run, FaultKind.LOCK_TIMEOUT_STORM).validDeadLettered()).isZero();
        assertThat(run.faults())
                .filteredOn(window -> window.kind() == FaultKind.LOCK_TIMEOUT_STORM)
                .singleElement()
                .satisfies(window -> assertThat(window.detail()).contains("lock_timeout", "FOR UPDATE"));
        assertBooksBalance(run);
    }

    /**
     * Killed and started again under its name (its static {@code group.instance.id}), the worker is back on its
     * partitions: every checkout accepted before the restart is decided, none dead-lettered.
     */
    @Test
    @Order(9)
    void aWorkerKilledAndRestartedUnderItsNameResumesItsPartitions() {
        var shared = shared(KILLS_REPLAY_AND_POISON, 0.5);
        var run = shared.get();

        assertHolds(run);
        var fault = run.faults().stream()
                .filter(window -> window.kind() == FaultKind.WORKER_KILL_RESTART)
                .findFirst()
                .orElseThrow();
        assertThat(fault.detail()).contains("a static member", "started again at once under its name");
        var killed = target.stack().workers().stream()
                .filter(worker -> fault.detail().startsWith("SIGKILL to " + worker.name() + " "))
                .findFirst()
                .orElseThrow();
        assertThat(killed.isAlive()).isTrue();
        assertThat(shared.workerPidsBefore()).doesNotContain(killed.pid());
        var restart = phase(run, FaultKind.WORKER_KILL_RESTART);
        assertThat(restart.caughtUpAfter()).isNotNull();
        assertThat(restart.validDeadLettered()).isZero();
        assertBooksBalance(run);
    }

    /**
     * Carts checked out by the reservation saga beside single-product orders, under two kills, a replay of every topic
     * and poison on every topic: the kills cut through sagas, the replay and the poison change nothing, and every cart
     * keeps the cart rules.
     */
    @Test
    @Order(10)
    void cartsCheckedOutThroughKillsAReplayAndPoisonKeepEveryCartRule() {
        var run = shared(KILLS_REPLAY_AND_POISON, 0.5).get();

        assertHolds(run);
        var carts = Objects.requireNonNull(run.carts());
        assertThat(carts.placed()).isPositive();
        assertThat(carts.decided()).isPositive();
        assertThat(phase(run, FaultKind.WORKER_KILL).cartsMidSaga()).isPositive();
        assertThat(phase(run, FaultKind.WORKER_KILL_RESTART).cartsMidSaga()).isPositive();
        assertThat(run.faults())
                .filteredOn(fault -> fault.kind() == FaultKind.REPLAY)
                .singleElement()
                .satisfies(fault -> assertThat(fault.detail())
                        .contains(
                                Topics.CHECKOUT_CARTS,
                                Topics.CHECKOUT_RESERVATIONS,
                                Topics.CHECKOUT_RESERVATION_REPLIES));
        assertThat(run.poison())
                .extracting(poison -> poison.kind().topic())
                .contains(Topics.CHECKOUT_CARTS, Topics.CHECKOUT_RESERVATIONS);
        assertThat(run.poison()).allSatisfy(poison -> {
            assertThat(poison.deadLettered()).as(poison.kind().label()).isEqualTo(poison.sent());
            assertThat(poison.reasons()).as(poison.kind().label()).doesNotContainKey(TopicEvidence.NO_REASON);
        });
        assertThat(Objects.requireNonNull(run.decoy()).untouched()).isTrue();
        assertBooksBalance(run);
        var checker =
                new InvariantChecker(Objects.requireNonNull(target.database()).dataSource());
        for (var book : run.products()) {
            var truth = checker.check(book.productId(), book.initialStock()).carts();
            assertThat(truth.completedCartsNotAllSold()).isZero();
            assertThat(truth.rejectedCartsHolding()).isZero();
            assertThat(truth.cartsPaidMoreThanOnce()).isZero();
            assertThat(truth.paymentsWithoutCompletion()).isZero();
            assertThat(truth.heldQuantity()).isZero();
        }
    }

    /**
     * A worker frozen mid-transaction for longer than its session: the other worker takes its partitions over,
     * PostgreSQL ends the frozen transaction, order creation on its products goes on, and the worker, resumed, loses
     * nothing and decides nothing twice. Carts, so that the freeze cuts through sagas.
     */
    @Test
    @Order(11)
    void aWorkerFrozenMidTransactionHandsItsPartitionsOverAndFailsSafelyWhenResumed() {
        var run = run(List.of(FaultKind.WORKER_FREEZE), 40, 0.3);

        assertHolds(run);
        var takeover = Objects.requireNonNull(run.faults().getFirst().takeover());
        assertThat(takeover.staleTransactions()).isPositive();
        assertThat(takeover.staleTransactionsEndedAfter()).isNotNull();
        assertThat(takeover.partitions())
                .anySatisfy(stall -> assertThat(stall.held()).isTrue());
        assertThat(Objects.requireNonNull(takeover.creations()).poolTimeouts()).isZero();
        // the pipeline's own workers, the resumed one among them; the replay's workers of earlier runs have ended
        assertThat(target.stack().workers())
                .filteredOn(worker -> !worker.name().contains("replay"))
                .hasSize(2)
                .allSatisfy(worker -> assertThat(worker.isAlive()).isTrue());
        assertBooksBalance(run);
    }

    /**
     * On a cluster of three brokers (a stack of its own), the broker that leads the most command partitions killed
     * with SIGKILL under load with carts: the followers take over, nothing accepted is lost or decided twice, the API
     * answers 202 or 503, and the broker started again rejoins every ISR.
     */
    @Test
    @Order(12)
    void aBrokerKilledOnAThreeBrokerClusterLosesNoAcceptedCheckoutAndRejoinsTheIsr(@TempDir Path workDirectory)
            throws IOException {
        var ports = FreePorts.several(2);
        var config = StackConfig.defaults(snapshotOfTheJars(workDirectory.resolve("project")))
                .withWorkDirectory(workDirectory)
                .withDatabase(new StackConfig.Database.Embedded(ports.get(0)))
                .withBroker(StackConfig.Broker.FromJars.onFreePorts(3, ports))
                // one worker: the brokers fail over here, not the workers
                .withApps(ports.get(1), 1, twoFreePorts(ports))
                .withAppOptions(List.of(), SHORT_SESSIONS);
        try (var cluster = StackTarget.start(config, 1, Duration.ofSeconds(30))) {
            var run = run(cluster, List.of(FaultKind.BROKER_KILL), 20, 0.3);

            assertHolds(run);
            var takeover = Objects.requireNonNull(run.faults().getFirst().takeover());
            assertThat(takeover.rejoinedAfter()).isNotNull();
            assertThat(takeover.longestStall()).isNotNull();
            assertThat(cluster.stack().cluster().orElseThrow().brokers())
                    .allSatisfy(broker -> assertThat(broker.isRunning()).isTrue());
            var outage = phase(run, FaultKind.BROKER_KILL);
            assertThat(outage.serverErrors()).isZero();
            assertThat(outage.other()).isZero();
            assertBooksBalance(cluster, run);
        }
    }

    /** The run of {@code faults} that the tests share, made by the first that asks for it. */
    private SharedRun shared(List<FaultKind> faults, double cartShare) {
        return sharedRuns.computeIfAbsent(faults, kinds -> {
            var pids = target.stack().workers().stream()
                    .map(worker -> worker.pid())
                    .toList();
            try {
                return new SharedRun(pids, run(kinds, 20, cartShare), null);
            } catch (RuntimeException ex) {
                return new SharedRun(pids, null, ex);
            }
        });
    }

    private ChaosRun run(List<FaultKind> faults, int rate, double cartShare) {
        return run(target, faults, rate, cartShare);
    }

    private static ChaosRun run(StackTarget target, List<FaultKind> faults, int rate, double cartShare) {
        var settings = new ChaosSettings(
                rate,
                3,
                null,
                faults,
                1,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                Duration.ofSeconds(4),
                250,
                Duration.ofSeconds(3),
                Duration.ofSeconds(3),
                Duration.ofSeconds(90),
                Duration.ofSeconds(30),
                2000,
                20,
                Duration.ofMinutes(2),
                cartShare,
                Duration.ofSeconds(20));
        return new ChaosExperiment(target, settings, Progress.silent(), Duration.ofSeconds(30)).run();
    }

    private static void assertHolds(ChaosRun run) {
        assertThat(run.checks())
                .as("notes: %s", run.notes())
                .filteredOn(check -> !check.holds())
                .extracting(Check::what, Check::measured)
                .isEmpty();
        assertThat(run.acceptance().accepted()).isPositive();
    }

    private void assertBooksBalance(ChaosRun run) {
        assertBooksBalance(target, run);
    }

    /** The invariants once more, straight from the database with the shared checker, for every product of the run. */
    private static void assertBooksBalance(StackTarget target, ChaosRun run) {
        var checker =
                new InvariantChecker(Objects.requireNonNull(target.database()).dataSource());
        for (var book : run.products()) {
            var truth = checker.check(book.productId(), book.initialStock());
            assertThat(truth.oversold()).isFalse();
            assertThat(truth.drift()).isZero();
            assertThat(truth.doublePayments()).isZero();
            assertThat(truth.paymentsWithoutCompletion()).isZero();
            assertThat(truth.payments()).isEqualTo(truth.completedOrders());
            assertThat(book.processedRows()).isEqualTo(truth.completedOrders() + truth.rejectedOrders());
        }
    }

    /** The setting was reset: a new session of the apps' kind can write again. */
    private void assertWritable() {
        try (var connection =
                        Objects.requireNonNull(target.database()).dataSource().getConnection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SHOW default_transaction_read_only")) {
            rows.next();
            assertThat(rows.getString(1)).isEqualTo("off");
        } catch (java.sql.SQLException ex) {
            throw new AssertionError(ex);
        }
    }

    private static PhaseFigures phase(ChaosRun run, FaultKind fault) {
        return run.phases().stream()
                .filter(phase -> phase.fault() == fault)
                .findFirst()
                .orElseThrow();
    }

    /**
     * The apps' jars copied as they are now: a worker restarted after its kill must run the code the others run, and
     * a rebuild of the apps while the class runs (another build in the same tree) must not change a jar under the
     * running processes. The worker's JVM flags file travels with its jar: the launcher reads it from the project.
     */
    private static Path snapshotOfTheJars(Path directory) throws IOException {
        var original = StackConfig.defaults(PROJECT);
        var copy = StackConfig.defaults(directory);
        for (var jars : List.of(
                List.of(original.apiJar(), copy.apiJar()),
                List.of(original.workerJar(), copy.workerJar()),
                List.of(original.workerJvmOptionsFile(), copy.workerJvmOptionsFile()),
                List.of(original.apiJvmOptionsFile(), copy.apiJvmOptionsFile()))) {
            Files.createDirectories(jars.get(1).getParent());
            Files.copy(jars.get(0), jars.get(1), StandardCopyOption.REPLACE_EXISTING);
        }
        return directory;
    }

    /** The first of two consecutive free ports that are none of {@code taken}. */
    private static int twoFreePorts(List<Integer> taken) {
        while (true) {
            var first = FreePorts.one();
            if (first < 65_535 && !taken.contains(first) && !taken.contains(first + 1) && FreePorts.isFree(first + 1)) {
                return first;
            }
        }
    }
}
