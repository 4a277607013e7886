package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.lab.measure.Progress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Follows a consumer group through a run: reads its offsets every interval until the run's records are all
 * committed, and returns the samples as a {@link LagTimeline}. When the end is near (less than two intervals of work
 * left at the current rate) it reads more often, so the moment the lag reaches zero is known to within ~50 ms.
 */
public final class LagFollower {

    private static final long MIN_PAUSE_MILLIS = 50;

    /** Called with every sample and the records committed so far; may act on the run (start or kill a worker). */
    @FunctionalInterface
    public interface Observer {
        void sampled(OffsetSample sample, long consumed);
    }

    private final GroupWatch watch;
    private final String group;
    private final Duration interval;
    private final boolean adaptive;
    private final boolean withOwners;

    /**
     * @param adaptive read more often near the end
     * @param withOwners note which member owned each partition at each sample (one more request each time)
     */
    public LagFollower(GroupWatch watch, String group, Duration interval, boolean adaptive, boolean withOwners) {
        this.watch = watch;
        this.group = group;
        this.interval = interval;
        this.adaptive = adaptive;
        this.withOwners = withOwners;
    }

    /**
     * Samples until {@code expected} records past {@code start} are committed and nothing is left.
     *
     * @param clockStart the {@link System#nanoTime()} the samples' times count from
     * @throws IllegalStateException after {@code timeout}
     */
    public LagTimeline follow(
            Map<Integer, Long> start,
            long expected,
            long clockStart,
            Duration timeout,
            Progress progress,
            Observer observer) {
        var samples = new ArrayList<OffsetSample>();
        var deadline = System.nanoTime() + timeout.toNanos();
        long reported = 0;
        long firstProgressAt = -1;
        while (true) {
            var sample = watch.sample(group, clockStart, withOwners);
            samples.add(sample);
            var timeline = new LagTimeline(start, java.util.List.of(sample));
            var consumed = timeline.consumed(sample);
            var lag = timeline.totalLag(sample);
            progress.advance(Math.max(0, consumed - reported));
            reported = Math.max(reported, consumed);
            observer.sampled(sample, consumed);
            if (consumed >= expected && lag == 0) {
                return new LagTimeline(start, samples);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the group " + group + " still had " + lag + " records to go after "
                        + timeout.toSeconds() + " s (" + consumed + " of " + expected + " done)");
            }
            if (firstProgressAt < 0 && consumed > 0) {
                firstProgressAt = sample.atMillis();
            }
            var pause = interval.toMillis();
            if (adaptive && firstProgressAt >= 0 && sample.atMillis() > firstProgressAt) {
                // the average rate so far: commits come in polls, so the rate between two samples jumps about
                var perMilli = (double) consumed / (sample.atMillis() - firstProgressAt);
                var remainingMillis = Math.max(0, expected - consumed) / perMilli;
                if (remainingMillis < 2 * pause) {
                    pause = Math.max(MIN_PAUSE_MILLIS, Math.min(pause, Math.round(remainingMillis / 4)));
                }
            }
            sleep(pause);
        }
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while following the consumer group", ex);
        }
    }
}
