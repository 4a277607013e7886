package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosStacks.assertBooksBalance;
import static dev.orderpipeline.lab.chaos.ChaosStacks.assertHolds;
import static dev.orderpipeline.lab.chaos.ChaosStacks.phase;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workers' faults of the chaos experiment, end to end, on a stack of their own started from the packaged jars (an
 * embedded PostgreSQL, a broker from the Kafka jars, one API, two workers): small runs of the experiment judged by the
 * database and the topics. Two kills (the second restarted under its name), a replay of every topic and poison on
 * every topic share one run with carts, so that the kills cut through sagas (poison last: a replay after it would
 * dead-letter it again); each test judges its fault's phase of it. The freeze has a run of its own, at 40/s so that
 * a freeze soon catches a transaction open. The broker's and the database's faults are {@link
 * DependencyFaultsEndToEndTests}, the broker kill on a cluster {@link BrokerKillEndToEndTests}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(1) // among the end-to-end classes: the longest start first
class ChaosEndToEndTests {

    private static final int WORKERS = 2;

    /**
     * Two kills (the second restarted under its name), a replay of every topic and poison on every topic; half the
     * checkouts are carts so that the kills find sagas in flight.
     */
    private static final List<FaultKind> KILLS_REPLAY_AND_POISON =
            List.of(FaultKind.WORKER_KILL, FaultKind.WORKER_KILL_RESTART, FaultKind.REPLAY, FaultKind.POISON);

    @AutoClose
    private StackTarget target;

    private final ChaosStacks.SharedRuns runs = new ChaosStacks.SharedRuns();

    @BeforeAll
    void startThePipeline(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path workDirectory) throws IOException {
        target = ChaosStacks.start(workDirectory, 1, WORKERS);
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
        assertBooksBalance(target, run);
    }

    @Test
    @Order(2)
    void replayingTheWholeCommandTopicThroughAFreshGroupChangesNothing() {
        var run = shared(KILLS_REPLAY_AND_POISON, 0.5).get();

        assertHolds(run);
        assertThat(run.faults())
                .filteredOn(fault -> fault.kind() == FaultKind.REPLAY)
                .singleElement()
                .satisfies(fault -> assertThat(fault.detail()).contains("from offset 0"));
        // every command the replay read again was reported as a duplicate, none decided again
        assertThat(run.topics().duplicateResults()).isPositive();
        assertBooksBalance(target, run);
        try (var topics = new GroupWatch(target.bootstrapServers())) {
            var end = topics.endOffsets(Topics.CHECKOUT_COMMANDS);
            assertThat(end.values().stream().mapToLong(Long::longValue).sum()).isPositive();
        }
    }

    @Test
    @Order(3)
    void poisonRecordsAllGoToTheDeadLetterTopicWithTheirReasonAndGoodCheckoutsStillComplete() {
        var run = shared(KILLS_REPLAY_AND_POISON, 0.5).get();

        assertHolds(run);
        assertThat(run.poison()).hasSize(PoisonKind.values().length).allSatisfy(poison -> {
            assertThat(poison.deadLettered()).as(poison.kind().label()).isEqualTo(poison.sent());
            assertThat(poison.reasons()).as(poison.kind().label()).doesNotContainKey(TopicEvidence.NO_REASON);
        });
        assertThat(run.topics().untaggedDeadLetteredAt()).isEmpty();
        assertThat(Objects.requireNonNull(run.decoy()).untouched()).isTrue();
        // checkouts accepted after the poison was written were decided
        var after = phase(run, FaultKind.POISON);
        assertThat(after.count("202")).isPositive();
        assertThat(after.maxTimeToFinal()).isNotNull();
        assertBooksBalance(target, run);
    }

    /**
     * Killed and started again under its name (its static {@code group.instance.id}), the worker is back on its
     * partitions: every checkout accepted before the restart is decided, none dead-lettered.
     */
    @Test
    @Order(4)
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
        assertBooksBalance(target, run);
    }

    /**
     * Carts checked out by the reservation saga beside single-product orders, under two kills, a replay of every topic
     * and poison on every topic: the kills cut through sagas, the replay and the poison change nothing, and every cart
     * keeps the cart rules.
     */
    @Test
    @Order(5)
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
        assertBooksBalance(target, run);
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
    @Order(6)
    void aWorkerFrozenMidTransactionHandsItsPartitionsOverAndFailsSafelyWhenResumed() {
        var run = ChaosStacks.run(target, List.of(FaultKind.WORKER_FREEZE), 40, 0.3);

        assertHolds(run);
        var takeover = Objects.requireNonNull(run.faults().getFirst().takeover());
        var freeze = Objects.requireNonNull(takeover.freeze());
        assertThat(freeze.staleTransactions()).isPositive();
        assertThat(freeze.staleTransactionsEndedAfter()).isNotNull();
        assertThat(takeover.partitions())
                .anySatisfy(stall -> assertThat(stall.held()).isTrue());
        assertThat(freeze.poolTimeouts()).isZero();
        // the pipeline's own workers, the resumed one among them; the replay's workers of earlier runs have ended
        assertThat(target.stack().workers())
                .filteredOn(worker -> !worker.name().contains("replay"))
                .hasSize(2)
                .allSatisfy(worker -> assertThat(worker.isAlive()).isTrue());
        assertBooksBalance(target, run);
    }

    private ChaosStacks.SharedRun shared(List<FaultKind> faults, double cartShare) {
        return runs.of(target, faults, cartShare);
    }
}
