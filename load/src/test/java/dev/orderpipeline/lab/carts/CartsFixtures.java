package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.compare.SkippedStrategy;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Carts reports with made-up figures, for tests of how they are shown and written. */
final class CartsFixtures {

    private CartsFixtures() {}

    /** Books that hold: 300 units, 150 sold, 150 left, 75 carts completed and 225 rejected. */
    static CartInvariants exact() {
        return new CartInvariants(
                List.of(
                        new CartInvariants.ProductBooks(UUID.randomUUID(), 100, 0, 100, 0, 0, List.of()),
                        new CartInvariants.ProductBooks(UUID.randomUUID(), 100, 50, 50, 0, 0, List.of()),
                        new CartInvariants.ProductBooks(UUID.randomUUID(), 100, 100, 0, 0, 0, List.of())),
                new CartOutcomes(75, 225, 0, Map.of("INSUFFICIENT_STOCK", 225L)));
    }

    /** Books that do not: the second product has 2 units held by a rejected cart whose release never came. */
    static CartInvariants leaking() {
        return new CartInvariants(
                List.of(
                        new CartInvariants.ProductBooks(UUID.randomUUID(), 100, 2, 98, 0, 0, List.of()),
                        new CartInvariants.ProductBooks(
                                UUID.randomUUID(),
                                100,
                                0,
                                98,
                                2,
                                2,
                                List.of(
                                        "rejected cart holding: 2 rejected carts have a line RESERVED or SOLD",
                                        "held after all final: 2 units held by carts although every order is"
                                                + " final"))),
                new CartOutcomes(98, 202, 0, Map.of("RESERVATION_TIMEOUT", 2L, "INSUFFICIENT_STOCK", 200L)));
    }

    static CartRun run(
            String strategy, double perSecond, @Nullable Long aborted, long deadlocks, CartInvariants books) {
        var saga = CartStrategies.isSaga(strategy);
        var toDecision = new Latency(300, 20, 400, 350, 700, 800, 1_250, 1_300, 1_310);
        var toAnswer = saga ? new Latency(300, 5, 60, 55, 90, 100, 140, 150, 151) : toDecision;
        return new CartRun(
                strategy,
                new BurstFigures(300, 300, 1.31, perSecond, toAnswer, toDecision, Map.of(saga ? "202" : "200", 300L)),
                aborted,
                deadlocks,
                0,
                false,
                books);
    }

    static CartsReport report(CartRun... runs) {
        var settings = new CartsSettings(3, 100, 300, 2, 1, CartStrategies.ALL, Duration.ofMinutes(2), 0);
        var header = new ReportHeader(
                "carts",
                Map.of("mode", "started by the lab", "apiReplicas", "1"),
                new Machine(2, 4096, "test CPU", "Linux", "JDK"),
                Map.of("lab", "test"),
                Instant.parse("2026-01-01T10:00:00Z"),
                Instant.parse("2026-01-01T10:01:00Z"));
        return new CartsReport(
                header, settings, List.of(runs), List.of(new SkippedStrategy("cart-optimistic", Strategies.UNKNOWN)));
    }
}
