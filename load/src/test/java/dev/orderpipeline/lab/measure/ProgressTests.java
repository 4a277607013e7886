package dev.orderpipeline.lab.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTests {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final Progress progress =
            new Progress(new PrintStream(log, true, StandardCharsets.UTF_8), false, "scale", now::get, false);

    @Test
    void saysWhichCellOfHowManyAndTheTimeLeftFromTheCellsDone() {
        for (var cell = 1; cell <= 6; cell++) {
            progress.item("cell", cell, 36, "P=" + cell + " W=2 hot");
            later(Duration.ofMinutes(2));
        }
        progress.item("cell", 7, 36, "P=6 W=2 hot");
        progress.phase("P=6 W=2 hot", 50_000);
        progress.advance(20_500);
        later(Duration.ofSeconds(4));

        // six cells in 12 minutes: 2 minutes each; 29 more after this one and 1m56s of this one
        assertThat(progress.line())
                .isEqualTo(
                        "scale  cell 7/36  P=6 W=2 hot  elapsed 12m04s  left ~59m56s  P=6 W=2 hot  20500/50000 41%  5125/s");
    }

    @Test
    void leavesTheTimeLeftOutUntilACellIsDone() {
        progress.item("strategy", 1, 9, "naive");
        progress.phase("naive checkout", 300);
        progress.advance(120);
        later(Duration.ofSeconds(2));

        assertThat(progress.line())
                .isEqualTo("scale  strategy 1/9  naive  elapsed 2s  naive checkout  120/300 40%  60/s");
    }

    @Test
    void estimatesTheRemainingCellsWhenThisOneRunsOverTheAverage() {
        assertThat(Progress.left(
                        3,
                        4,
                        0,
                        Duration.ofMinutes(10).toNanos(),
                        Duration.ofMinutes(30).toNanos()))
                .as("two cells of 5 minutes, this one at 20: one more of 5")
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(Progress.left(
                        4,
                        4,
                        0,
                        Duration.ofMinutes(15).toNanos(),
                        Duration.ofMinutes(16).toNanos()))
                .isEqualTo(Duration.ofMinutes(4));
        assertThat(Progress.left(1, 4, 0, 0, 10)).isNull();
    }

    @Test
    void printsTimesAsAPersonReadsThem() {
        assertThat(Progress.clock(Duration.ofSeconds(41))).isEqualTo("41s");
        assertThat(Progress.clock(Duration.ofSeconds(12 * 60 + 4))).isEqualTo("12m04s");
        assertThat(Progress.clock(Duration.ofMinutes(62))).isEqualTo("1h02m");
    }

    @Test
    void writesALineForEachCellIntoALog() {
        progress.item("fault", 1, 9, "worker-kill");
        later(Duration.ofSeconds(40));
        progress.item("fault", 2, 9, "broker-restart");

        assertThat(log.toString(StandardCharsets.UTF_8).lines())
                .containsExactly(
                        "scale  fault 1/9  worker-kill  elapsed 0s",
                        "scale  fault 2/9  broker-restart  elapsed 40s  left ~5m20s");
    }

    @Test
    void keepsTheLineOfARunWithoutCellsAsItWas() {
        progress.phase("starting the pipeline", 0);
        later(Duration.ofMillis(2100));

        assertThat(progress.line()).isEqualTo("scale  elapsed 2s  starting the pipeline");
    }

    private void later(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
