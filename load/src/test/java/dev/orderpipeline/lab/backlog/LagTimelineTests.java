package dev.orderpipeline.lab.backlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LagTimelineTests {

    @Test
    void countsLagFromTheCommittedOffsetOrFromTheRunsStart() {
        // committed: end minus committed
        assertThat(LagTimeline.lag(150, 120L, 100)).isEqualTo(30);
        // never committed: everything since the run's start waits
        assertThat(LagTimeline.lag(150, null, 100)).isEqualTo(50);
        // an earlier run's commit counts as the start
        assertThat(LagTimeline.lag(150, 80L, 100)).isEqualTo(50);
        // a commit at the end: nothing waits, never negative
        assertThat(LagTimeline.lag(150, 150L, 100)).isZero();
        assertThat(LagTimeline.lag(150, 160L, 100)).isZero();

        assertThat(LagTimeline.consumed(120L, 100)).isEqualTo(20);
        assertThat(LagTimeline.consumed(null, 100)).isZero();
        assertThat(LagTimeline.consumed(80L, 100)).isZero();
    }

    @Test
    void addsUpPartitionsAndFindsWhenTheBacklogWasDrained() {
        var start = Map.of(0, 0L, 1, 50L);
        var timeline = new LagTimeline(
                start,
                List.of(
                        sample(0, Map.of(0, 100L, 1, 150L), Map.of()),
                        sample(1000, Map.of(0, 100L, 1, 150L), Map.of(0, 60L)),
                        sample(2000, Map.of(0, 100L, 1, 150L), Map.of(0, 100L, 1, 120L)),
                        sample(2500, Map.of(0, 100L, 1, 150L), Map.of(0, 100L, 1, 150L))));

        assertThat(timeline.samples()).extracting(timeline::totalLag).containsExactly(200L, 140L, 30L, 0L);
        assertThat(timeline.samples()).extracting(timeline::consumed).containsExactly(0L, 60L, 170L, 200L);
        assertThat(timeline.drainedAtMillis(200)).hasValue(2500);
        assertThat(timeline.drainedAtMillis(201)).isEmpty();
        assertThat(timeline.curve()).extracting(LagTimeline.Point::lag).containsExactly(200L, 140L, 30L, 0L);
    }

    @Test
    void measuresTheLongestTimeAPartitionHadWorkAndMadeNoProgress() {
        // partition 0 moves every sample; partition 1 stalls from 1.0 s to 4.0 s (its owner died), then catches up;
        // partition 2 has nothing to do for a while, which is no pause
        var end = Map.of(0, 1000L, 1, 1000L, 2, 10L);
        var timeline = new LagTimeline(
                Map.of(0, 0L, 1, 0L, 2, 0L),
                List.of(
                        sample(0, end, Map.of(0, 100L, 1, 100L, 2, 10L)),
                        sample(1000, end, Map.of(0, 200L, 1, 200L, 2, 10L)),
                        sample(2000, end, Map.of(0, 300L, 1, 200L, 2, 10L)),
                        sample(3000, end, Map.of(0, 400L, 1, 200L, 2, 10L)),
                        sample(4000, end, Map.of(0, 500L, 1, 300L, 2, 10L)),
                        sample(5000, end, Map.of(0, 600L, 1, 400L, 2, 10L))));

        assertThat(timeline.longestStallMillis(0, 5000))
                .containsExactly(Map.entry(0, 1000L), Map.entry(1, 3000L), Map.entry(2, 0L));
        // a window that ends inside the stall counts it up to the window's end
        assertThat(timeline.longestStallMillis(0, 3000)).containsEntry(1, 2000L);
    }

    private static OffsetSample sample(long at, Map<Integer, Long> end, Map<Integer, Long> committed) {
        return new OffsetSample(at, end, committed, Map.of());
    }
}
