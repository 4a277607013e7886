package dev.orderpipeline.lab.load;

import java.time.Duration;

/**
 * When each request of an open-model load is due: request {@code i} at {@code i / rate} seconds after the start,
 * evenly spaced. Starting requests on this schedule, and not when earlier ones were answered, is what keeps a slow
 * system from slowing its own load down (coordinated omission).
 */
public record OpenModelSchedule(double ratePerSecond, Duration duration) {

    public OpenModelSchedule {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be positive: " + ratePerSecond);
        }
        if (!duration.isPositive()) {
            throw new IllegalArgumentException("duration must be positive: " + duration);
        }
    }

    public int arrivals() {
        var count = Math.floor(ratePerSecond * duration.toNanos() / 1e9 + 1e-9);
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many arrivals: " + count);
        }
        return (int) count;
    }

    /** Nanoseconds from the start at which request {@code index} (from 0) is due. */
    public long offsetNanos(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("index must not be negative: " + index);
        }
        return Math.round(index * 1e9 / ratePerSecond);
    }
}
