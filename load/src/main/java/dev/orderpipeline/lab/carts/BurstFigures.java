package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.measure.StatusCounts;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What one burst of cart checkouts measured, all from the moment the checkouts were released.
 *
 * @param decided carts whose decision the lab saw
 * @param elapsedSeconds from the release to the last decision seen (or the last answer, if later)
 */
public record BurstFigures(
        int carts,
        long decided,
        double elapsedSeconds,
        double decidedPerSecond,
        Latency toAnswer,
        Latency toDecision,
        Map<String, Long> httpStatuses) {

    public BurstFigures {
        httpStatuses = Collections.unmodifiableMap(new TreeMap<>(httpStatuses));
    }

    /**
     * What the lab saw of one cart's checkout, in {@link System#nanoTime()}.
     *
     * @param status the answer's status code, or {@code timeout} / {@code io-error}
     * @param decidedAt when the lab learnt the cart's decision (the answer itself for a strategy that decides in the
     *     request, the result on {@code checkout.results} or the database for the saga); {@code null} if it never did
     */
    record Checkout(
            long answeredAt, String status, @Nullable Long decidedAt) {}

    /** The figures of checkouts released at {@code releasedAt} ({@link System#nanoTime()}). */
    static BurstFigures of(long releasedAt, List<Checkout> checkouts) {
        var toAnswer = new LatencyRecorder();
        var toDecision = new LatencyRecorder();
        var statuses = new StatusCounts();
        var end = releasedAt;
        long decided = 0;
        for (var checkout : checkouts) {
            toAnswer.recordNanos(checkout.answeredAt() - releasedAt);
            statuses.add(checkout.status());
            end = Math.max(end, checkout.answeredAt());
            var decidedAt = checkout.decidedAt();
            if (decidedAt != null) {
                decided++;
                toDecision.recordNanos(decidedAt - releasedAt);
                end = Math.max(end, decidedAt);
            }
        }
        var elapsed = Math.max(end - releasedAt, 1) / 1e9;
        return new BurstFigures(
                checkouts.size(),
                decided,
                Math.round(elapsed * 1000) / 1000.0,
                Math.round(decided / elapsed * 10) / 10.0,
                toAnswer.summary(),
                toDecision.summary(),
                statuses.snapshot());
    }
}
