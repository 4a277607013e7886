package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.StatusCounts;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * A burst of checkouts released at once: one virtual thread per checkout, each waiting on one latch that opens when
 * all of them are ready, so they reach the API together as the buyers of a flash sale would. Times are {@link
 * System#nanoTime()}, the arrays indexed by buyer.
 *
 * @param releasedAt when the latch opened
 * @param startedAt when each checkout was sent
 * @param answeredAt when each answer came
 * @param statuses each answer, as {@link ApiClient#checkout} gives it
 */
public record Burst(long releasedAt, long[] startedAt, long[] answeredAt, String[] statuses) {

    /** The answers after which an order will become final without the lab doing anything more. */
    private static final List<String> ANSWERED = List.of("200", "202", "409", StatusCounts.SOLD_OUT);

    /**
     * Runs {@code count} checkouts at once and returns when every one has been answered; {@code atRelease} runs once
     * all are ready, just before the latch opens.
     */
    public static Burst release(int count, IntFunction<String> checkout, Runnable atRelease, Progress progress) {
        var startedAt = new long[count];
        var answeredAt = new long[count];
        var statuses = new String[count];
        var ready = new CountDownLatch(count);
        var release = new CountDownLatch(1);
        long releasedAt;
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var index = 0; index < count; index++) {
                var buyer = index;
                executor.execute(() -> {
                    ready.countDown();
                    awaitQuietly(release);
                    startedAt[buyer] = System.nanoTime();
                    statuses[buyer] = checkout.apply(buyer);
                    answeredAt[buyer] = System.nanoTime();
                    progress.advance();
                });
            }
            try {
                awaitQuietly(ready);
                atRelease.run();
            } finally {
                releasedAt = System.nanoTime();
                // even when that failed: buyers waiting on the latch would keep the executor open forever
                release.countDown();
            }
        }
        return new Burst(releasedAt, startedAt, answeredAt, statuses);
    }

    public Map<String, Long> statusCounts() {
        var counts = new StatusCounts();
        Arrays.stream(statuses).forEach(counts::add);
        return counts.snapshot();
    }

    /** Each checkout's time from its start to its answer. */
    public Latency latency() {
        var latency = new LatencyRecorder();
        for (var index = 0; index < statuses.length; index++) {
            latency.recordNanos(answeredAt[index] - startedAt[index]);
        }
        return latency.summary();
    }

    /** The last answer, or the release if that came later. */
    public long lastAnswer() {
        return Math.max(releasedAt, Arrays.stream(answeredAt).max().orElse(0));
    }

    /** Checkouts refused at the pipeline's door: final answers whose orders stay CREATED. */
    public long soldOut() {
        return Arrays.stream(statuses).filter(StatusCounts.SOLD_OUT::equals).count();
    }

    /** Checkouts that got no answer the strategies define (200, 202 or 409): a timeout, a 5xx. */
    public long unanswered() {
        return Arrays.stream(statuses)
                .filter(status -> !ANSWERED.contains(status))
                .count();
    }

    /** Orders that stay CREATED for good: refused at the door or by an HTTP error ({@link #refused}). */
    public long staysOpen() {
        return soldOut()
                + IntStream.range(0, statuses.length).filter(this::refused).count();
    }

    /**
     * Whether the API refused or failed checkout {@code index} (an HTTP error): nothing will decide its order. A
     * client timeout, a broken connection or a {@link StatusCounts#OUTCOME_UNKNOWN} is not that, since the server may
     * still be deciding it.
     */
    boolean refused(int index) {
        var status = statuses[index];
        return !ANSWERED.contains(status)
                && !StatusCounts.TIMEOUT.equals(status)
                && !StatusCounts.OUTCOME_UNKNOWN.equals(status)
                && !StatusCounts.IO_ERROR.equals(status);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
