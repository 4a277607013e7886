package dev.orderpipeline.lab.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupSettingsTests {

    @Test
    void acceptsNoneAddKillAndRestartAndNothingElse() {
        assertThat(settings(List.of("none", "add", "kill", " Restart "), List.of(2))
                        .events())
                .containsExactly("none", "add", "kill", "restart");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> settings(List.of("reboot"), List.of(2)))
                .withMessageContaining("restart");
    }

    @Test
    void leavesOutTheCellsWhereAddOrKillWouldLeaveNoWorker() {
        // none and restart at 1 and 2 workers, add and kill at 2 only; times 2 partition counts and 2 protocols
        assertThat(settings(List.of("none", "add", "kill", "restart"), List.of(1, 2))
                        .grid()
                        .size())
                .isEqualTo(6 * 2 * 2);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> settings(List.of("kill"), List.of(1)))
                .withMessageContaining("at least 2 workers");
    }

    private static GroupSettings settings(List<String> events, List<Integer> workers) {
        return new GroupSettings(
                List.of(6, 3),
                workers,
                List.of(new KeyDistribution.Uniform(100)),
                events,
                List.of("classic", "consumer"),
                1000,
                100,
                0,
                Duration.ofMillis(200),
                Duration.ofSeconds(60));
    }
}
