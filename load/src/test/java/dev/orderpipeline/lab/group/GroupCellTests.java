package dev.orderpipeline.lab.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.OffsetSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupCellTests {

    /** Three partitions, earlier runs' records before the start; a hot key sends most of the backlog to partition 0. */
    private static final LagTimeline TIMELINE = new LagTimeline(
            Map.of(0, 100L, 1, 0L, 2, 50L),
            List.of(
                    new OffsetSample(0, Map.of(0, 400L, 1, 0L, 2, 150L), Map.of(0, 100L, 2, 50L), Map.of()),
                    new OffsetSample(500, Map.of(0, 400L, 1, 0L, 2, 150L), Map.of(0, 250L, 2, 150L), Map.of()),
                    new OffsetSample(1250, Map.of(0, 400L, 1, 0L, 2, 150L), Map.of(0, 400L, 2, 150L), Map.of())));

    @Test
    void countsEachPartitionsRecordsFromTheRunsStartNotFromZero() {
        assertThat(GroupCell.recordsPerPartition(TIMELINE)).containsExactly(300L, 0L, 100L);
    }

    @Test
    void namesTheEventAndTheProtocolOnlyWhenTheCellHasThemBesideTheDefaults() {
        assertThat(GroupCell.label(6, 2, "hot", "none", "classic")).isEqualTo("P=6 W=2 hot");
        assertThat(GroupCell.label(6, 2, "hot", "none", "consumer")).isEqualTo("P=6 W=2 hot / consumer");
        assertThat(GroupCell.label(6, 2, "hot", "kill", "classic")).isEqualTo("P=6 W=2 hot kill / classic");
    }
}
