package dev.orderpipeline.lab.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.OffsetSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisruptionTests {

    private static final Map<Integer, String> TWO_WORKERS =
            Map.of(0, "lab-worker-1-0", 1, "lab-worker-1-0", 2, "lab-worker-2-0", 3, "lab-worker-2-0");
    private static final Map<Integer, String> ONE_WORKER =
            Map.of(0, "lab-worker-1-0", 1, "lab-worker-1-0", 2, "lab-worker-1-0", 3, "lab-worker-1-0");

    /**
     * Four partitions, every one with records waiting throughout; each sample one second apart commits 100 more on
     * the partitions that move. lab-worker-2 owns 2 and 3 and is killed at 2 s: they stand still until 6 s, the
     * survivor is seen owning them from 5 s.
     */
    private static LagTimeline killAtTwoSeconds() {
        var samples = new ArrayList<OffsetSample>();
        long[] stalled = {0, 0, 200, 200, 200, 200, 300};
        for (var second = 0; second <= 6; second++) {
            var moving = 100L * second;
            var owners = second <= 2
                    ? TWO_WORKERS
                    : second < 5 ? Map.of(0, "lab-worker-1-0", 1, "lab-worker-1-0") : ONE_WORKER;
            var committed = second < 2
                    ? Map.of(0, moving, 1, moving, 2, moving, 3, moving)
                    : Map.of(0, moving, 1, moving, 2, stalled[second], 3, stalled[second]);
            samples.add(new OffsetSample(second * 1000L, end(), committed, owners));
        }
        return new LagTimeline(Map.of(0, 0L, 1, 0L, 2, 0L, 3, 0L), samples);
    }

    private static Map<Integer, Long> end() {
        return Map.of(0, 1000L, 1, 1000L, 2, 1000L, 3, 1000L);
    }

    @Test
    void findsTheMovedPartitionsAndTheirPauseAgainstThoseThatStayed() {
        var pauses = Disruption.of(killAtTwoSeconds(), 2000, TWO_WORKERS, "lab-worker-2", -1, 6000);

        assertThat(pauses.moved()).containsExactly(2, 3);
        assertThat(pauses.longestMovedMillis()).isEqualTo(4000);
        assertThat(pauses.longestStayedMillis()).isEqualTo(1000);
    }

    @Test
    void measuresTheKilledWorkersPartitionsAndTheGapBeforeTheEvent() {
        var pauses = Disruption.of(killAtTwoSeconds(), 2000, TWO_WORKERS, "lab-worker-2", -1, 6000);

        assertThat(pauses.longestKilledMillis()).isEqualTo(4000L);
        // one commit a second on every partition before the kill
        assertThat(pauses.gapBeforeMillis()).isEqualTo(1000);
    }

    @Test
    void leavesTheKilledFiguresEmptyWhenAWorkerWasAddedAndNotesWhenItWasReady() {
        var pauses = Disruption.of(killAtTwoSeconds(), 2000, TWO_WORKERS, null, 3500, 6000);

        assertThat(pauses.readyAtSeconds()).isEqualTo(3.5);
        assertThat(pauses.longestKilledMillis()).isNull();
        assertThat(pauses.moved()).containsExactly(2, 3);
    }

    @Test
    void seesNoReassignmentWhenTheEventNeverCame() {
        var pauses = Disruption.of(killAtTwoSeconds(), -1, ONE_WORKER, null, -1, 6000);

        assertThat(pauses.moved()).isEmpty();
    }

    @Test
    void findsTheKilledWorkersPartitionsByItsClientIdWithOrWithoutTheContainerSuffix() {
        var owners = Map.of(0, "lab-worker-1-0", 1, "lab-worker-2-0", 2, "lab-worker-2", 3, "lab-worker-12-0");

        assertThat(Disruption.ownedBy(owners, "lab-worker-2")).containsExactly(1, 2);
        assertThat(Disruption.ownedBy(owners, "lab-worker-1")).containsExactly(0);
        assertThat(Disruption.ownedBy(owners, "lab-worker-3")).isEmpty();
    }

    @Test
    void readsThePauseOfTheKilledWorkersPartitionsEvenWhenNoneMoved() {
        var pauses = Map.of(0, 300L, 1, 4_200L, 2, 3_900L, 3, 250L);

        assertThat(Disruption.longestAmong(pauses, List.of(1, 2))).isEqualTo(4_200L);
        assertThat(Disruption.longestAmong(pauses, List.of(5))).isZero();
        assertThat(Disruption.longestAmong(pauses, List.of())).isZero();
    }
}
