package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.lab.measure.Progress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ObjLongConsumer;

/**
 * Follows a consumer group through a run: reads its offsets every {@code interval} until the run's records are all
 * committed, and returns the samples as a {@link LagTimeline}. When {@code adaptive} and the end is near (less than
 * two intervals of work left at the current rate) it reads more often, so the moment the lag reaches zero is known to
 * within ~50 ms; {@code withOwners} notes which member owned each partition at each sample (one more request each).
 */
public record LagFollower(GroupWatch watch, String group, Duration interval, boolean adaptive, boolean withOwners) {

    private static final long MIN_PAUSE_MILLIS = 50;

    /**
     * Samples until {@code expected} records past {@code start} are committed and nothing is left; the samples' times
     * count from {@code clockStart} ({@link System#nanoTime()}). The observer gets every sample with the records
     * committed so far, and may act on the run (start or kill a worker).
     *
     * @throws IllegalStateException after {@code timeout}
     */
    public LagTimeline follow(
            Map<Integer, Long> start,
            long expected,
            long clockStart,
            Duration timeout,
            Progress progress,
            ObjLongConsumer<OffsetSample> observer) {
        var samples = new ArrayList<OffsetSample>();
        var deadline = System.nanoTime() + timeout.toNanos();
        long reported = 0;
        long firstProgressAt = -1;
        while (true) {
            var sample = watch.sample(group, clockStart, withOwners);
            samples.add(sample);
            var timeline = new LagTimeline(start, List.of(sample));
            var consumed = timeline.consumed(sample);
            var lag = timeline.totalLag(sample);
            progress.advance(Math.max(0, consumed - reported));
            reported = Math.max(reported, consumed);
            observer.accept(sample, consumed);
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
            GroupWatch.pause(pause);
        }
    }
}
