package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import org.junit.jupiter.api.Test;

class ChaosJudgeTests {

    private final ChaosFixtures run = new ChaosFixtures();

    @Test
    void timesTheResumeAfterABrokerOutageFromTheDecisionsNotFromTheAnswers() {
        run.checkout(0, 5.0, "202", 5.1);
        var stalled = run.checkout(1, 9.9, "202", 22.0);
        var refused = run.checkout(0, 14.0, "503", 23.0);
        run.retry(refused, 2, 21.0, "202");
        run.fault(FaultKind.BROKER_RESTART, "broker restart", 10, 20);
        run.checkout(1, 25.0, "202", 25.2);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.BROKER_RESTART), 26));

        assertThat(judged.phases()).extracting(PhaseFigures::name).containsExactly("steady", "broker restart");
        var broker = judged.phases().get(1);
        assertThat(broker.firstDecisionAfter()).isEqualTo(2.0);
        assertThat(broker.caughtUpAfter()).isEqualTo(2.0);
        assertThat(broker.count("503")).isEqualTo(1);
        assertThat(broker.count("202")).isEqualTo(2);
        assertThat(judged.acceptance().accepted()).isEqualTo(4);
        assertThat(judged.acceptance().maxTimeToFinal()).isEqualTo(12.1);
        assertThat(judged.acceptance().lastDecisionAfterFaults()).isEqualTo(2.0);
        assertThat(judged.retries().ordersRetried()).isEqualTo(1);
        assertThat(judged.retries().endedAccepted()).isEqualTo(1);
        assertThat(judged.checks()).filteredOn(check -> !check.holds()).isEmpty();
        assertThat(judged.holds()).isTrue();
        // the figures the docs quote from the verdict
        assertThat(judged.checks())
                .extracting(Check::measured)
                .contains(
                        "0 late; last decision of a checkout accepted before the end: +2.0 s after it; longest 202 to"
                                + " final 12.1 s, p99 12.1 s",
                        "drift 0 on all 2 products (0 sold out, 0 orders rejected)",
                        "0 double, 0 without completion, payments = completed on all 2 products (4 payments for 4"
                                + " completed orders)",
                        "1 orders retried (1 retries): 1 × 202, 0 × 409, 0 still 503, 0 other; 0 paid twice, 0 recorded"
                                + " twice");
    }

    @Test
    void failsTheRunWhenAnAcceptedCheckoutIsNeverDecided() {
        run.checkout(0, 5.0, "202", 5.1);
        var lost = run.checkout(1, 12.0, "202", null);
        run.fault(FaultKind.WORKER_KILL, "kill -9 #1", 10, 20);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.WORKER_KILL), 30));

        assertThat(judged.acceptance().notDecided()).isEqualTo(1);
        assertThat(judged.acceptance().notDecidedSample())
                .containsExactly(run.orders.get(lost).orderId());
        assertThat(judged.phases().get(1).caughtUpAfter()).isNull();
        assertThat(judged.checks())
                .filteredOn(check -> !check.holds())
                .extracting(Check::what)
                .contains(
                        "every checkout that got a 202 is decided (COMPLETED or REJECTED)",
                        "the pipeline catches up after every fault");
        assertThat(judged.holds()).isFalse();
    }

    @Test
    void countsA500AsAFailureOfTheRunAndA503WithoutRetryAfterToo() {
        run.checkout(0, 5.0, "202", 5.1);
        run.checkout(1, 11.0, "500", null);
        var index = run.order(0);
        run.attempts.add(new Attempt(index, 1, 12.0, 12.5, "503", false));
        run.fault(FaultKind.DATABASE_RESTART, "PostgreSQL restart", 10, 20);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.DATABASE_RESTART), 30));

        var phase = judged.phases().get(1);
        assertThat(phase.serverErrors()).isEqualTo(1);
        assertThat(phase.unavailableWithoutRetryAfter()).isEqualTo(1);
        assertThat(judged.checks())
                .filteredOn(check -> !check.holds())
                .extracting(Check::what)
                .containsExactlyInAnyOrder(
                        "the API never answers 500 (a 500 is a bug)", "every 503 carries Retry-After");
    }

    @Test
    void measuresTheLongestTimeAProductHadACheckoutWaitingAndNoDecision() {
        run.checkout(0, 10.0, "202", 15.0);
        run.checkout(0, 10.5, "202", 15.0);
        run.checkout(0, 16.0, "202", 16.1);
        run.checkout(1, 11.0, "202", 11.2);
        run.checkout(1, 12.0, "202", 12.1);
        run.fault(FaultKind.WORKER_KILL, "kill -9 #1", 9, 12);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.WORKER_KILL), 20));

        var kill = judged.phases().get(1);
        assertThat(kill.longestStall()).isEqualTo(5.0);
        assertThat(kill.caughtUpAfter()).isEqualTo(3.0);
        assertThat(kill.maxTimeToFinal()).isEqualTo(5.0);
    }

    @Test
    void flagsACheckoutDecidedLaterThanTheDeadlineAfterTheFaults() {
        run.checkout(0, 19.0, "202", 55.0);
        run.fault(FaultKind.REPLAY, "replay from offset 0", 10, 20);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.REPLAY), 30));

        assertThat(judged.checks())
                .filteredOn(check -> !check.holds())
                .extracting(Check::what)
                .containsExactly("every accepted checkout final within 30 s of the end of the faults (or of its"
                        + " 202, if later)");
        assertThat(judged.acceptance().lastDecisionAfterFaults()).isEqualTo(35.0);
    }

    @Test
    void countsARetryAnswered409AsDecidedFromAnEarlierAttempt() {
        var index = run.checkout(0, 12.0, "503", 13.0);
        run.retry(index, 2, 17.0, "409");
        run.fault(FaultKind.BROKER_RESTART, "broker restart", 10, 15);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.BROKER_RESTART), 20));

        assertThat(judged.retries().endedConflict()).isEqualTo(1);
        assertThat(judged.checks())
                .filteredOn(check -> check.what().startsWith("a retried checkout"))
                .singleElement()
                .satisfies(check -> assertThat(check.holds()).isTrue());
    }

    @Test
    void failsTheRunWhenARealCommandWasDeadLetteredEvenWithoutPoison() {
        run.checkout(0, 5.0, "202", 5.1);
        run.checkout(1, 12.0, "202", null);
        run.fault(FaultKind.DATABASE_READ_ONLY, "database read-only", 10, 20);
        run.soundBooks();
        run.topics = new ChaosRun.TopicFigures(
                2, 1, 0, java.util.Map.of("cannot be applied: Connection is closed", 1L), java.util.List.of(12.5));

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.DATABASE_READ_ONLY), 30));

        assertThat(judged.checks())
                .filteredOn(check -> !check.holds())
                .extracting(Check::what)
                .contains(
                        "no real command dead-lettered",
                        "no command lost between the command topics (checkouts, cart checkouts) and the database",
                        "every checkout that got a 202 is decided (COMPLETED or REJECTED)");
        assertThat(judged.checks())
                .filteredOn(check -> check.what().equals("no real command dead-lettered"))
                .singleElement()
                .satisfies(check ->
                        assertThat(check.measured()).contains("Connection is closed", "database read-only: 1"));
        assertThat(judged.phases())
                .extracting(PhaseFigures::name, PhaseFigures::validDeadLettered)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("steady", 0L),
                        org.assertj.core.groups.Tuple.tuple("database read-only", 1L));
    }

    @Test
    void countsEachSecondsAnswersAndDecisions() {
        run.checkout(0, 0.5, "202", 2.5);
        run.checkout(1, 1.5, "202", 1.6);
        run.checkout(0, 1.7, "503", null);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.POISON), 3));

        assertThat(judged.timeline()).hasSizeGreaterThanOrEqualTo(3);
        var first = judged.timeline().get(0);
        var second = judged.timeline().get(1);
        var third = judged.timeline().get(2);
        assertThat(first.accepted()).isEqualTo(1);
        assertThat(first.decided()).isZero();
        assertThat(second.accepted()).isEqualTo(1);
        assertThat(second.unavailable()).isEqualTo(1);
        assertThat(second.decided()).isEqualTo(1);
        assertThat(third.decided()).isEqualTo(1);
        assertThat(third.accepted()).isZero();
    }
}
