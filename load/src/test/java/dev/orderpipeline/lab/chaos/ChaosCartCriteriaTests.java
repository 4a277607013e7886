package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import java.util.HashSet;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ChaosCartCriteriaTests {

    private final ChaosFixtures run = new ChaosFixtures();

    @Test
    void countsTheCartsAKillCutThroughMidSagaAndHoldsWhenEachKillHadOne() {
        run.cart(5.0, 5.2);
        run.cart(9.0, 25.0);
        run.cart(9.5, null);
        run.cart(15.0, 16.0);
        run.cart(21.0, 21.5);
        run.checkout(0, 9.0, "202", 25.0);
        run.fault(FaultKind.WORKER_KILL, "kill -9 #1", 10, 20);
        run.soundBooks();
        run.carts = sound(5, 4);

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.WORKER_KILL), 30));

        var kill = judged.phases().stream()
                .filter(phase -> phase.fault() == FaultKind.WORKER_KILL)
                .findFirst()
                .orElseThrow();
        // the second, third and fourth cart were in flight while the kill lasted; not the first (decided before),
        // nor the last (accepted after), nor the single order
        assertThat(kill.cartsMidSaga()).isEqualTo(3);
        assertThat(judged.phases().getFirst().cartsMidSaga()).isNull();
        assertThat(judged.checks())
                .filteredOn(check -> check.what().equals("worker-kill hits carts mid-saga"))
                .singleElement()
                .satisfies(check -> assertThat(check.measured()).isEqualTo("kill -9 #1: 3"))
                .extracting(Check::holds)
                .isEqualTo(true);
    }

    @Test
    void failsTheKillCriterionWhenNoCartWasInFlightAtTheKill() {
        run.cart(5.0, 5.2);
        run.fault(FaultKind.WORKER_KILL_RESTART, "kill -9 and restart under its name", 10, 20);
        run.soundBooks();
        run.carts = sound(1, 1);

        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(FaultKind.WORKER_KILL_RESTART), 30));

        assertThat(ChaosCriteria.cartsMidSaga(findings, FaultKind.WORKER_KILL_RESTART))
                .get()
                .extracting(Check::holds)
                .isEqualTo(false);
    }

    @Test
    void judgesNoCartCriterionInARunWithoutCarts() {
        run.checkout(0, 5.0, "202", 5.1);
        run.fault(FaultKind.WORKER_KILL, "kill -9 #1", 10, 20);
        run.soundBooks();

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(FaultKind.WORKER_KILL), 30));

        assertThat(judged.checks()).extracting(Check::what).noneMatch(ChaosCartCriteriaTests::aboutCarts);
        assertThat(judged.phases())
                .allSatisfy(phase -> assertThat(phase.cartsMidSaga()).isNull());
        assertThat(judged.holds()).isTrue();
    }

    @Test
    void holdsEveryCartRuleOnSoundCarts() {
        run.cart(5.0, 5.2);
        run.soundBooks();
        run.carts = sound(1, 1);

        var judged = ChaosJudge.judge(run.evidence(ChaosFixtures.settings(), 30));

        assertThat(judged.checks())
                .filteredOn(check -> aboutCarts(check.what()))
                .hasSize(4);
        assertThat(judged.holds()).isTrue();
        assertThat(judged.carts()).isEqualTo(run.carts);
    }

    @Test
    void failsTheCartRulesOnACompletedCartWithALineNotSoldOrARejectedOneHolding() {
        run.cart(5.0, 5.2);
        run.soundBooks();
        run.carts = new CartVerdict(10, 6, 4, 4, 0, 0, 1, 0, 0, 0, 6, 0, 0, 10, 0);
        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30));

        var completed = ChaosCriteria.cartsByTheCartRules(findings).orElseThrow();

        assertThat(completed.holds()).isFalse();
        assertThat(completed.measured())
                .isEqualTo(
                        "1 of 6 completed with a line not SOLD, 0 of 4 rejected holding (4 out of stock, 0 timed out)");

        run.carts = new CartVerdict(10, 6, 4, 4, 0, 0, 0, 2, 0, 0, 6, 0, 0, 10, 0);
        assertThat(ChaosCriteria.cartsByTheCartRules(ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30)))
                        .orElseThrow()
                        .holds())
                .isFalse();
    }

    @Test
    void failsWhenUnitsAreHeldOnceEveryCartIsFinal() {
        run.cart(5.0, 5.2);
        run.soundBooks();
        // two units held by final carts: releases that never came
        run.carts = new CartVerdict(10, 6, 4, 4, 0, 0, 0, 0, 2, 2, 6, 0, 0, 10, 0);

        var check = ChaosCriteria.nothingHeldOnceFinal(ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30)))
                .orElseThrow();

        assertThat(check.holds()).isFalse();
        assertThat(check.measured()).isEqualTo("2 units held by final carts, 2 held in all, 0 carts not final");
    }

    @Test
    void holdsWhileAnOpenCartHoldsUnitsAndNoFinalOneDoes() {
        run.cart(5.0, 5.2);
        run.soundBooks();
        // a cart never checked out has PENDING lines and holds nothing; one still reserving may hold
        run.carts = new CartVerdict(10, 6, 3, 3, 0, 1, 0, 0, 1, 0, 6, 0, 0, 9, 0);

        assertThat(ChaosCriteria.nothingHeldOnceFinal(ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30)))
                        .orElseThrow()
                        .holds())
                .isTrue();
    }

    @Test
    void requiresOnePaymentPerCompletedCartAndOneOutcomePerDecidedCart() {
        run.cart(5.0, 5.2);
        run.soundBooks();
        run.carts = new CartVerdict(10, 6, 4, 4, 0, 0, 0, 0, 0, 0, 7, 1, 0, 11, 1);
        var findings = ChaosJudge.findings(run.evidence(ChaosFixtures.settings(), 30));

        var payments = ChaosCriteria.onePaymentPerCompletedCart(findings).orElseThrow();
        var outcomes = ChaosCriteria.oneOutcomePerDecidedCart(findings).orElseThrow();

        assertThat(payments.holds()).isFalse();
        assertThat(payments.measured()).isEqualTo("1 double, 0 without completion, 7 payments for 6 completed");
        assertThat(outcomes.holds()).isFalse();
        assertThat(outcomes.measured()).isEqualTo("11 rows, 10 decided carts, 1 disagreeing");
    }

    @Test
    void spreadsTheCartsEvenlyOverTheLoad() {
        var carts = IntStream.range(0, 1000)
                .filter(index -> PreparedOrder.isCart(index, 0.3))
                .toArray();

        assertThat(carts).hasSize(300);
        assertThat(IntStream.range(0, 10).filter(index -> PreparedOrder.isCart(index, 0.3)))
                .hasSize(3);
        assertThat(IntStream.range(0, 100).filter(index -> PreparedOrder.isCart(index, 0.0)))
                .isEmpty();
    }

    @Test
    void drawsCartsOfTwoOrThreeDistinctProductsInVaryingLineOrders() {
        var random = new Random(7);
        var seen = new HashSet<java.util.List<Integer>>();
        for (var draw = 0; draw < 200; draw++) {
            var lines = PreparedOrder.lines(random, 3);
            assertThat(lines).hasSizeBetween(2, 3).doesNotHaveDuplicates().allMatch(line -> line >= 0 && line < 3);
            seen.add(lines);
        }
        // 6 orders of two products and 6 of three
        assertThat(seen).hasSize(12);
        assertThat(PreparedOrder.lines(random, 2)).containsExactlyInAnyOrder(0, 1);
    }

    /** The criteria of carts only (the command topics' criterion names cart checkouts in every run). */
    private static boolean aboutCarts(String what) {
        return what.contains("cart") && !what.startsWith("no command lost");
    }

    /** Carts that keep every rule: {@code completed} of {@code placed} completed, the others rejected. */
    private static CartVerdict sound(long placed, long completed) {
        var rejected = placed - completed;
        return new CartVerdict(placed, completed, rejected, rejected, 0, 0, 0, 0, 0, 0, completed, 0, 0, placed, 0);
    }
}
