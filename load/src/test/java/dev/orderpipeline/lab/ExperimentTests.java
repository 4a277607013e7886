package dev.orderpipeline.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.measure.Progress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentTests {

    /** Records what the skeleton asks of it. */
    private static final class Recording implements Experiment<String, String> {

        final List<String> calls = new ArrayList<>();

        @Override
        public List<String> cells() {
            return List.of("hot", "uniform:10");
        }

        @Override
        public String label(String strategy, String cell, int repetition) {
            return strategy + " " + cell + " #" + repetition;
        }

        @Override
        public void warmUp(String strategy, String cell) {
            calls.add("warm-up " + strategy + " " + cell);
        }

        @Override
        public String run(String strategy, String cell, int repetition, String label) {
            calls.add("run " + label);
            return label;
        }

        @Override
        public String describe(String run) {
            return run;
        }
    }

    @Test
    void warmsEachStrategyUpOnceRunsTheRepetitionsOutermostAndInterleavesTheStrategiesInEachCell() {
        var experiment = new Recording();

        var runs = Experiment.run(experiment, List.of("kafka", "for-update"), 2, "run", Progress.silent());

        assertThat(runs).hasSize(8).first().isEqualTo("kafka hot #1");
        assertThat(experiment.calls)
                .containsExactly(
                        "warm-up kafka hot",
                        "run kafka hot #1",
                        "warm-up for-update hot",
                        "run for-update hot #1",
                        "run kafka uniform:10 #1",
                        "run for-update uniform:10 #1",
                        "run kafka hot #2",
                        "run for-update hot #2",
                        "run kafka uniform:10 #2",
                        "run for-update uniform:10 #2");
    }
}
