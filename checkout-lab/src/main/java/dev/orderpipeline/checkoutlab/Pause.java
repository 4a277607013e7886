package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** The pauses of the lab: the check-to-write delay and the jitter before a retry. */
final class Pause {

    private Pause() {}

    static void sleep(Duration duration) {
        if (!duration.isPositive()) {
            return;
        }
        try {
            Thread.sleep(duration);
        } catch (InterruptedException ex) {
            // the request is being torn down (shutdown): keep the flag and abandon the checkout, which rolls back
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pausing a checkout", ex);
        }
    }

    /** A random pause of up to {@code max}, so that the losers of a conflict do not collide again in step. */
    static void jitter(Duration max) {
        var nanos = max.toNanos();
        if (nanos > 0) {
            sleep(Duration.ofNanos(ThreadLocalRandom.current().nextLong(nanos + 1)));
        }
    }
}
