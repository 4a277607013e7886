package dev.orderpipeline.lab.chaos;

/**
 * The time base of a run: seconds since the load started, from the lab's monotonic clock for what the lab sees and
 * from wall-clock timestamps for what the database and the broker recorded (they run on the same machine).
 */
record RunClock(long startNanos, long startEpochMillis) {

    static RunClock startingNow() {
        return new RunClock(System.nanoTime(), System.currentTimeMillis());
    }

    /** Seconds since the start of a {@link System#nanoTime()} reading. */
    double seconds(long nanos) {
        return (nanos - startNanos) / 1e9;
    }

    /** Seconds since the start, now. */
    double now() {
        return seconds(System.nanoTime());
    }

    /** Seconds since the start of a wall-clock time in milliseconds. */
    double secondsOfEpochMillis(long epochMillis) {
        return (epochMillis - startEpochMillis) / 1000.0;
    }
}
