package dev.orderpipeline.lab.rebalance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RebalanceExperimentTests {

    @Test
    void acceptsRestartBesideAddAndKillAndNothingElse() {
        assertThat(settings(List.of("add", "kill", " Restart ")).scenarios()).containsExactly("add", "kill", "restart");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> settings(List.of("reboot")))
                .withMessageContaining("restart");
    }

    private static RebalanceSettings settings(List<String> scenarios) {
        return new RebalanceSettings(
                scenarios,
                List.of("classic"),
                1000,
                100,
                new KeyDistribution.Uniform(100),
                6,
                0.3,
                0,
                Duration.ofMillis(200),
                Duration.ofSeconds(60));
    }
}
