package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.IdempotencyRows;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.measure.StatusCounts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChaosCriteriaTests {

    private final ChaosFixtures run = new ChaosFixtures();

    @Test
    void judgesTheCriteriaOfAFaultOnlyWhenTheRunInjectedIt() {
        run.checkout(0, 5.0, "202", 5.1);
        run.fault(FaultKind.WORKER_KILL, "kill -9 #1", 10, 20);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.WORKER_KILL), 30));

        assertThat(judged.checks())
                .extracting(Check::what)
                .noneMatch(what -> what.contains("poison") || what.contains("broker"))
                .last()
                .isEqualTo("the pipeline catches up after every fault");
    }

    @Test
    void failsThePoisonCriteriaWhenARecordIsMissingFromTheDeadLetterTopicAndNoDecoyWasRead() {
        run.checkout(0, 5.0, "202", 5.1);
        run.fault(FaultKind.POISON, "poison records", 10, 11);
        run.soundBooks();
        run.poison.add(new ChaosRun.PoisonFigures(PoisonKind.INVALID_JSON, 2, 1, java.util.Map.of("bad", 1L), 1.0));

        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(FaultKind.POISON), 30));

        assertThat(ChaosCriteria.deadLetteredWithReason(findings, FaultKind.POISON))
                .get()
                .satisfies(check -> assertThat(check.measured()).isEqualTo("1 of 2, 0 without reason"))
                .extracting(Check::holds)
                .isEqualTo(false);
        assertThat(ChaosCriteria.decoysUntouched(findings, FaultKind.POISON))
                .get()
                .extracting(Check::holds)
                .isEqualTo(false);
    }

    @Test
    void failsTheBrokerCriterionWhenTheOutageAnswered500() {
        run.checkout(0, 5.0, "202", 5.1);
        run.checkout(1, 12.0, "503", null);
        run.checkout(1, 13.0, "500", null);
        run.fault(FaultKind.BROKER_RESTART, "broker restart", 10, 20);
        run.soundBooks();

        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(FaultKind.BROKER_RESTART), 30));

        assertThat(ChaosCriteria.unavailableWhileBrokerDown(findings, FaultKind.BROKER_RESTART))
                .get()
                .satisfies(check -> assertThat(check.measured()).startsWith("1 × 503, 1 × other 5xx"))
                .extracting(Check::holds)
                .isEqualTo(false);
    }

    @Test
    void failsTheBrokerCriterionWhenACheckoutWentUnansweredDuringTheOutage() {
        run.checkout(0, 5.0, "202", 5.1);
        run.checkout(1, 12.0, "503", null);
        run.checkout(2, 13.0, StatusCounts.TIMEOUT, null);
        run.fault(FaultKind.BROKER_RESTART, "broker restart", 10, 20);
        run.soundBooks();

        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(FaultKind.BROKER_RESTART), 30));

        assertThat(ChaosCriteria.unavailableWhileBrokerDown(findings, FaultKind.BROKER_RESTART))
                .get()
                .satisfies(
                        check -> assertThat(check.measured()).isEqualTo("1 × 503, 0 × other 5xx, 1 timeouts or errors"))
                .extracting(Check::holds)
                .isEqualTo(false);
    }

    @Test
    void namesTheDriftOfEveryProductWhenOneDrifts() {
        run.checkout(0, 5.0, "202", 5.1);
        run.soundBooks();
        var sound = run.books.getFirst();
        run.books = List.of(sound, withStockLeft(run.books.get(1), 103));

        var check = ChaosCriteria.noDrift(ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30)))
                .orElseThrow();

        assertThat(check.holds()).isFalse();
        assertThat(check.measured()).isEqualTo("product 2: drift: stock 103 + sold 0 != initial 100");
    }

    @Test
    void requiresOnePaymentPerCompletedOrder() {
        run.checkout(0, 5.0, "202", 5.1);
        run.soundBooks();
        var book = run.books.getFirst();
        run.books = List.of(new InvariantReport(
                book.productId(),
                book.initialStock(),
                book.stockLeft(),
                book.completedOrders(),
                book.completedQuantity(),
                0,
                Map.of(),
                0,
                book.payments() + 1,
                0,
                0));

        var check = ChaosCriteria.noDoublePayment(ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30)))
                .orElseThrow();

        assertThat(check.holds()).isFalse();
        assertThat(check.measured()).isEqualTo("product 1: unpaid: 1 completed orders but 2 payments");
    }

    @Test
    void failsTheDoubleDecrementCriterionWhenAnOrderHasTwoIdempotencyRows() {
        run.checkout(0, 5.0, "202", 5.1);
        run.soundBooks();
        run.idempotency = new IdempotencyRows(1, 2, 0);

        var check = ChaosCriteria.noDoubleDecrement(ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30)))
                .orElseThrow();

        assertThat(check.holds()).isFalse();
        assertThat(check.measured()).isEqualTo("2 rows, 1 decided orders, 0 disagreeing");
    }

    @Test
    void judgesRetriesOnlyInARunThatHadAny() {
        run.checkout(0, 5.0, "202", 5.1);
        run.soundBooks();

        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30));

        assertThat(ChaosCriteria.retriedOnce(findings)).isEmpty();
    }

    @Test
    void plansTheLoadFromWhatEachFaultSaysItTakes() {
        var settings = ChaosFixtures.settings(FaultKind.WORKER_KILL, FaultKind.BROKER_RESTART, FaultKind.POISON);

        // warm-up 5 s; a kill the 45 s group session + 5 s + recovery 5 s; broker 15 s + down 10 s + recovery;
        // poison 10 s + recovery
        assertThat(settings.plannedLoad()).isEqualTo(Duration.ofSeconds(5 + 55 + 30 + 15));
        assertThat(settings.plannedCheckouts()).isEqualTo(100 * 105);
        // a stack with shorter sessions plans shorter kills
        var shortSessions = new ChaosSettings(
                100,
                2,
                List.of(FaultKind.WORKER_KILL),
                1,
                settings.brokerDown(),
                settings.databaseDown(),
                settings.databaseFault(),
                10,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                100,
                0.0,
                settings.workerFreeze(),
                Duration.ofSeconds(10));
        assertThat(shortSessions.plannedLoad()).isEqualTo(Duration.ofSeconds(5 + 10 + 5 + 5));
    }

    @Test
    void givesEachKillAWindowOfItsOwnAndOtherFaultsOne() {
        var settings = new ChaosCommand().settings();

        assertThat(FaultKind.WORKER_KILL.windows(settings)).isEqualTo(3);
        assertThat(FaultKind.WORKER_KILL.windowName(2)).isEqualTo("kill -9 #2");
        // each kill the 45 s group session + 5 s and its recovery of 15 s
        assertThat(FaultKind.WORKER_KILL.planned(settings)).isEqualTo(Duration.ofSeconds(3 * 65));
        assertThat(FaultKind.BROKER_RESTART.windows(settings)).isEqualTo(1);
        assertThat(FaultKind.BROKER_RESTART.windowName(1)).isEqualTo("broker restart");
    }

    private static InvariantReport withStockLeft(InvariantReport book, int stockLeft) {
        return new InvariantReport(
                book.productId(),
                book.initialStock(),
                stockLeft,
                book.completedOrders(),
                book.completedQuantity(),
                book.rejectedOrders(),
                Map.of(),
                0,
                book.payments(),
                0,
                0);
    }
}
