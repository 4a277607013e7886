package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.measure.Progress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;

/**
 * A burst of checkouts released at once: one virtual thread per checkout, each waiting on one latch that opens when
 * all of them are ready, so they reach the API together as the buyers of a flash sale would.
 *
 * @param releasedAt when the latch opened ({@link System#nanoTime()})
 * @param answeredAt when each checkout's answer came, by index
 * @param statuses each checkout's answer, by index
 */
record Release(long releasedAt, long[] answeredAt, String[] statuses) {

    /** Runs {@code count} checkouts at once and returns when every one has been answered. */
    static Release of(int count, IntFunction<String> checkout, Progress progress) {
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
                    statuses[buyer] = checkout.apply(buyer);
                    answeredAt[buyer] = System.nanoTime();
                    progress.advance();
                });
            }
            try {
                awaitQuietly(ready);
            } finally {
                releasedAt = System.nanoTime();
                // even when interrupted: buyers waiting on the latch would keep the executor open forever
                release.countDown();
            }
        }
        return new Release(releasedAt, answeredAt, statuses);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
