package dev.orderpipeline.lab.carts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BurstFiguresTests {

    private static final long RELEASED = TimeUnit.SECONDS.toNanos(1_000);

    private static long at(long millis) {
        return RELEASED + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void countsTheDecisionsSeenAndTimesThemFromTheRelease() {
        var figures = BurstFigures.of(
                RELEASED,
                List.of(
                        new BurstFigures.Checkout(at(100), "200", at(100)),
                        new BurstFigures.Checkout(at(200), "200", at(200)),
                        new BurstFigures.Checkout(at(1_000), "200", at(1_000)),
                        new BurstFigures.Checkout(at(50), "503", null)));

        assertThat(figures.carts()).isEqualTo(4);
        assertThat(figures.decided()).isEqualTo(3);
        assertThat(figures.elapsedSeconds()).isEqualTo(1.0);
        assertThat(figures.decidedPerSecond()).isEqualTo(3.0);
        assertThat(figures.toDecision().count()).isEqualTo(3);
        assertThat(figures.toDecision().p50Ms()).isBetween(199.0, 201.0);
        assertThat(figures.toDecision().maxMs()).isBetween(999.0, 1_001.0);
        assertThat(figures.toAnswer().count()).isEqualTo(4);
        assertThat(figures.toAnswer().minMs()).isBetween(49.0, 51.0);
        assertThat(figures.httpStatuses())
                .containsExactly(java.util.Map.entry("200", 3L), java.util.Map.entry("503", 1L));
    }

    @Test
    void aSagaIsTimedToItsDecisionNotToItsAcceptedAnswer() {
        var figures = BurstFigures.of(
                RELEASED,
                List.of(
                        new BurstFigures.Checkout(at(40), "202", at(1_500)),
                        new BurstFigures.Checkout(at(60), "202", at(2_000))));

        assertThat(figures.elapsedSeconds()).isEqualTo(2.0);
        assertThat(figures.decidedPerSecond()).isEqualTo(1.0);
        assertThat(figures.toDecision().p50Ms()).isBetween(1_499.0, 1_501.0);
        assertThat(figures.toAnswer().maxMs()).isBetween(59.0, 61.0);
    }

    @Test
    void aLateUndecidedAnswerStillEndsTheBurst() {
        var figures = BurstFigures.of(
                RELEASED,
                List.of(
                        new BurstFigures.Checkout(at(500), "200", at(500)),
                        new BurstFigures.Checkout(at(4_000), "timeout", null)));

        assertThat(figures.elapsedSeconds()).isEqualTo(4.0);
        assertThat(figures.decidedPerSecond()).isEqualTo(0.3);
    }

    @Test
    void aBurstWithoutAnyDecisionHasNoDecisionTimes() {
        var figures = BurstFigures.of(RELEASED, List.of(new BurstFigures.Checkout(at(30), "io-error", null)));

        assertThat(figures.decided()).isZero();
        assertThat(figures.decidedPerSecond()).isZero();
        assertThat(figures.toDecision().count()).isZero();
    }
}
