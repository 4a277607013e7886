package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.measure.ResourceUsage.DatabaseUsage;
import dev.orderpipeline.lab.measure.ResourceUsage.ProcessUsage;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PhaseSamplerTests {

    @Test
    void addsUpAPhasesSegmentsWithTheCpuOfTheProcessesStartedDuringThem() {
        var beforeTheKill = segment(new DatabaseUsage(5, 40.0, 80.0, 2.0, 0.5, 1000L), worker(1.5), broker(0.5));
        var afterTheKill = segment(new DatabaseUsage(3, 20.0, 50.0, 1.0, 0.25, 500L), worker(2.0), broker(0.25));

        var phase = PhaseSampler.merged(List.of(beforeTheKill, afterTheKill), Map.of(StackTarget.WORKER, 4.0));

        assertThat(phase.processes())
                .extracting(ProcessUsage::kind, ProcessUsage::cpuSeconds)
                .containsExactlyInAnyOrder(tuple(StackTarget.WORKER, 7.5), tuple(StackTarget.BROKER, 0.75));
        assertThat(phase.database().cpuSeconds()).isEqualTo(3.0);
        assertThat(phase.database().lockWaitSeconds()).isEqualTo(0.75);
        assertThat(phase.database().walBytes()).isEqualTo(1500L);
        assertThat(phase.samples()).isEqualTo(20);
    }

    @Test
    void leavesAFigureUnknownWhenASegmentCouldNotMeasureIt() {
        // PostgreSQL restarted during the first segment: its WAL could not be read at the segment's end
        var restarted = segment(new DatabaseUsage(5, 40.0, 80.0, 2.0, 0.5, null), worker(1.0));
        var after = segment(new DatabaseUsage(3, 20.0, 50.0, 1.0, 0.25, 500L), worker(1.0));

        var phase = PhaseSampler.merged(List.of(restarted, after), Map.of());

        assertThat(phase.database().walBytes()).isNull();
        assertThat(phase.database().cpuSeconds()).isEqualTo(3.0);
    }

    private static ResourceUsage segment(DatabaseUsage database, ProcessUsage... processes) {
        return new ResourceUsage(List.of(processes), database, 10);
    }

    private static ProcessUsage worker(double cpuSeconds) {
        return new ProcessUsage(StackTarget.WORKER, 2, 50, 90, 300, cpuSeconds);
    }

    private static ProcessUsage broker(double cpuSeconds) {
        return new ProcessUsage(StackTarget.BROKER, 1, 10, 30, 400, cpuSeconds);
    }
}
