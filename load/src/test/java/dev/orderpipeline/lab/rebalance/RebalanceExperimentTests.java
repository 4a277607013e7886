package dev.orderpipeline.lab.rebalance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RebalanceExperimentTests {

    @Test
    void findsTheKilledWorkersPartitionsByItsClientIdWithOrWithoutTheContainerSuffix() {
        var owners = Map.of(0, "lab-worker-1-0", 1, "lab-worker-2-0", 2, "lab-worker-2", 3, "lab-worker-12-0");

        assertThat(Pauses.ownedBy(owners, "lab-worker-2")).containsExactly(1, 2);
        assertThat(Pauses.ownedBy(owners, "lab-worker-1")).containsExactly(0);
        assertThat(Pauses.ownedBy(owners, "lab-worker-3")).isEmpty();
    }

    @Test
    void readsThePauseOfTheKilledWorkersPartitionsEvenWhenNoneMoved() {
        var pauses = Map.of(0, 300L, 1, 4_200L, 2, 3_900L, 3, 250L);

        assertThat(Pauses.longestAmong(pauses, List.of(1, 2))).isEqualTo(4_200L);
        assertThat(Pauses.longestAmong(pauses, List.of(5))).isZero();
        assertThat(Pauses.longestAmong(pauses, List.of())).isZero();
    }

    @Test
    void ordersEventsByTheTimeTheyStartWith() {
        assertThat(RebalanceExperiment.secondsOf("12.4 s: killed lab-worker-2 with SIGKILL"))
                .isEqualTo(12.4);
        assertThat(RebalanceExperiment.secondsOf("lab-worker-2 did not get ready"))
                .isEqualTo(Double.MAX_VALUE);
    }

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
                new KeyDistribution.Uniform(100).label(),
                6,
                0.3,
                0,
                Duration.ofMillis(200),
                Duration.ofSeconds(60));
    }
}
