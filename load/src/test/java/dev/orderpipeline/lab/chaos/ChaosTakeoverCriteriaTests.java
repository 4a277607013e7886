package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.Freeze;
import dev.orderpipeline.lab.chaos.ChaosRun.PartitionStall;
import dev.orderpipeline.lab.chaos.ChaosRun.Takeover;
import dev.orderpipeline.lab.measure.StatusCounts;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The criteria of a broker lost and of a worker frozen, on made-up evidence. */
class ChaosTakeoverCriteriaTests {

    private final ChaosFixtures run = new ChaosFixtures();

    @Test
    void aPartitionIsCaughtUpByADecisionAfterTheFaultOrBySellingOutAfterDecisionsResumed() {
        var hot = UUID.randomUUID();
        var other = UUID.randomUUID();
        var byPartition = Map.of(0, List.of(hot), 1, List.of(other));
        var over = 10_000L;

        // partition 1 had no decision after the fault is over: not caught up while its product has stock
        assertThat(ProcessFaults.caughtUp(
                        byPartition, Map.of(hot, List.of(12_000L), other, List.of(8_000L)), Set.of(), over))
                .isFalse();
        // sold out after a decision since the fault: nothing more comes, the wait is over
        assertThat(ProcessFaults.caughtUp(
                        byPartition, Map.of(hot, List.of(12_000L), other, List.of(8_000L)), Set.of(other), over))
                .isTrue();
        // sold out with no decision since the fault: the stall has not been seen to end
        assertThat(ProcessFaults.caughtUp(byPartition, Map.of(hot, List.of(12_000L)), Set.of(other), over))
                .isFalse();
        assertThat(ProcessFaults.caughtUp(
                        byPartition, Map.of(hot, List.of(12_000L), other, List.of(10_001L)), Set.of(), over))
                .isTrue();
    }

    @Test
    void aPartitionsStallIsItsLongestGapWithoutADecisionFromTheFaultOn() {
        assertThat(ProcessFaults.longestGap(1_000, List.of(1_500L, 1_600L, 9_000L, 9_100L)))
                .isEqualTo(7.4);
        assertThat(ProcessFaults.longestGap(1_000, List.of(9_000L))).isEqualTo(8.0);
        assertThat(ProcessFaults.longestGap(1_000, List.of())).isNull();
    }

    @Test
    void aBrokerKillHoldsWhenEveryPartitionResumesTheBrokerRejoinsAndTheApiAnswers202Or503() {
        run.checkout(0, 5.0, "202", 5.1);
        run.checkout(1, 12.0, "503", null);
        run.checkout(1, 13.0, "202", 21.0);
        run.fault(
                FaultKind.BROKER_KILL,
                "broker kill -9",
                10,
                40,
                takeover(List.of(new PartitionStall(2, true, 11.2), new PartitionStall(4, false, 0.4)), 6.0));
        run.soundBooks();

        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(FaultKind.BROKER_KILL), 50));

        assertThat(ChaosCriteria.onlyUnavailableWhileABrokerIsLost(findings, FaultKind.BROKER_KILL))
                .get()
                .extracting(Check::holds)
                .isEqualTo(true);
        assertThat(ChaosCriteria.decisionsResume(findings, FaultKind.BROKER_KILL))
                .get()
                .satisfies(check -> assertThat(check.measured()).startsWith("p2* 11.2 s, p4 0.4 s"))
                .extracting(Check::holds)
                .isEqualTo(true);
        assertThat(ChaosCriteria.killedBrokerRejoinsTheIsr(findings, FaultKind.BROKER_KILL))
                .get()
                .extracting(Check::holds)
                .isEqualTo(true);
    }

    @Test
    void aBrokerKillFailsOnATimeoutAPartitionThatNeverResumedAndABrokerOutOfTheIsr() {
        run.checkout(0, 5.0, "202", 5.1);
        run.checkout(1, 12.0, StatusCounts.TIMEOUT, null);
        run.fault(
                FaultKind.BROKER_KILL,
                "broker kill -9",
                10,
                40,
                takeover(List.of(new PartitionStall(2, true, null)), null));
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.BROKER_KILL), 50));

        assertThat(judged.checks())
                .filteredOn(check -> !check.holds())
                .extracting(Check::what)
                .contains(
                        "while a broker is lost, every answer is 202 or 503 (not 500, not silence)",
                        "broker-kill: decisions resume on every partition of the load's products",
                        "the killed broker, started again, rejoins the in-sync replicas of every partition it holds");
    }

    @Test
    void aWorkerFreezeFailsWhenNoTransactionWasCaughtOpenOrTheApiPoolTimedOut() {
        run.checkout(0, 5.0, "202", 5.1);
        run.fault(
                FaultKind.WORKER_FREEZE,
                "worker frozen",
                10,
                40,
                new Takeover(List.of(new PartitionStall(2, true, 16.0)), null, new Freeze(0, null, 50, 0, 0.2, 3)));
        run.soundBooks();

        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(FaultKind.WORKER_FREEZE), 50));

        assertThat(ChaosCriteria.decisionsResume(findings, FaultKind.WORKER_FREEZE))
                .get()
                .extracting(Check::holds)
                .isEqualTo(true);
        assertThat(ChaosCriteria.frozenTransactionEnded(findings, FaultKind.WORKER_FREEZE))
                .get()
                .extracting(Check::holds)
                .isEqualTo(false);
        assertThat(ChaosCriteria.orderCreationUnblockedWhileFrozen(findings, FaultKind.WORKER_FREEZE))
                .get()
                .satisfies(check -> assertThat(check.measured()).contains("3 pool timeouts"))
                .extracting(Check::holds)
                .isEqualTo(false);
    }

    private static Takeover takeover(List<PartitionStall> stalls, @Nullable Double rejoinedAfter) {
        return new Takeover(stalls, rejoinedAfter, null);
    }
}
