package dev.orderpipeline.lab.chaos;

/**
 * The time base of a run: seconds since the load started, from the lab's monotonic clock for what the lab sees and
 * from wall-clock timestamps for what the database and the broker recorded (they run on the same machine).
 */
record RunClock(long startNanos, long startEpochMillis) {

    static RunClock startingNow() {
        return new RunClock(System.nanoTime(), System.currentTimeMillis());
    }

    double seconds(long nanos) {
        return (nanos - startNanos) / 1e9;
    }

    double now() {
        return seconds(System.nanoTime());
    }

    double secondsOfEpochMillis(long epochMillis) {
        return (epochMillis - startEpochMillis) / 1000.0;
    }
}
