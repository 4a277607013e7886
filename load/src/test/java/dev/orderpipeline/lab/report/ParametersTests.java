package dev.orderpipeline.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class ParametersTests {

    private record Inner(List<Integer> batchSizes, Duration maxDuration) {}

    private record Settings(
            int commands,
            List<String> keys,
            Duration lagInterval,
            Duration timeout,
            @Nullable Integer delayMillis,
            @Nullable Inner ceiling) {}

    @Test
    void showsEverySettingOfTheRecordUnderItsName() {
        var parameters = Parameters.of(new Settings(
                1000, List.of("hot", "uniform:10"), Duration.ofMillis(250), Duration.ofMinutes(10), null, null));

        assertThat(parameters)
                .containsExactly(
                        java.util.Map.entry("commands", "1000"),
                        java.util.Map.entry("keys", "hot,uniform:10"),
                        java.util.Map.entry("lagInterval", "250 ms"),
                        java.util.Map.entry("timeout", "600 s"),
                        java.util.Map.entry("delayMillis", "not set"),
                        java.util.Map.entry("ceiling", "not set"));
    }

    @Test
    void namesANestedRecordsSettingsAfterIt() {
        var parameters = Parameters.of(new Settings(
                1,
                List.of(),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                5,
                new Inner(List.of(100, 500), Duration.ofSeconds(20))));

        assertThat(parameters)
                .containsEntry("ceiling.batchSizes", "100,500")
                .containsEntry("ceiling.maxDuration", "20 s")
                .containsEntry("delayMillis", "5")
                .doesNotContainKey("ceiling");
    }
}
