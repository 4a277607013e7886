package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.DevelopmentTokens;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BurstExperimentTests {

    /** Records what the scaffold asks of it; kafka needs no answer from the API to be offered. */
    private static final class Recording implements BurstExperiment.Workload<String> {

        final List<String> calls = new ArrayList<>();

        @Override
        public void warmUp(String strategy) {
            calls.add("warm-up " + strategy);
        }

        @Override
        public String run(String strategy, int repetition, String label) {
            calls.add("run " + label + " (" + repetition + ")");
            return label;
        }

        @Override
        public String describe(String run) {
            return run;
        }
    }

    @Test
    void warmsEachStrategyUpOnceAndRunsTheRepetitionsOutermost() {
        var workload = new Recording();
        try (var http = ApiClient.newHttpClient()) {
            var api = new ApiClient(
                    "http://127.0.0.1:9",
                    URI.create("http://127.0.0.1:9/actuator/prometheus"),
                    http,
                    Duration.ofSeconds(1),
                    new DevelopmentTokens("a development key of the tests, long enough for HS256"));
            var outcome = BurstExperiment.run(api, List.of(Strategies.KAFKA), 2, Progress.silent(), workload);

            assertThat(outcome.runs()).containsExactly("kafka #1", "kafka #2");
            assertThat(outcome.skipped()).isEmpty();
        }
        assertThat(workload.calls).containsExactly("warm-up kafka", "run kafka #1 (1)", "run kafka #2 (2)");
    }

    @Test
    void saysNothingOfARunWhoseInvariantsHoldAndListsTheOnesThatDoNot() {
        assertThat(BurstExperiment.violated(List.of())).isEmpty();
        assertThat(BurstExperiment.violated(List.of("oversell: 101 units sold of 100", "drift: 1")))
                .isEqualTo("  VIOLATED: oversell: 101 units sold of 100; drift: 1");
    }
}
