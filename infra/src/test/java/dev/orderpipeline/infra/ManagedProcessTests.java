package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagedProcessTests {

    @TempDir
    Path directory;

    @Test
    void stopsWithSigtermAndKeepsEveryIncarnationInOneLog() throws Exception {
        var process = shell("stoppable", "trap 'echo got TERM; exit 3' TERM; echo up; while true; do sleep 0.1; done");

        process.start();
        process.awaitReady(() -> linesSaying(process, "up") == 1, Duration.ofSeconds(10));
        assertThat(process.stop(Duration.ofSeconds(10))).isEqualTo(3);
        process.start();
        process.awaitReady(() -> linesSaying(process, "up") == 2, Duration.ofSeconds(10));
        assertThat(process.stop(Duration.ofSeconds(10))).isEqualTo(3);

        var log = Files.readString(process.logFile());
        assertThat(log.lines().filter(line -> line.contains("starting stoppable")))
                .hasSize(2);
        assertThat(log.lines().filter(line -> line.equals("got TERM"))).hasSize(2);
    }

    @Test
    void killsWhatIgnoresSigtermOnceTheGracePeriodIsOver() {
        var process = shell("stubborn", "trap '' TERM; echo up; while true; do sleep 0.1; done");
        process.start();
        process.awaitReady(() -> linesSaying(process, "up") == 1, Duration.ofSeconds(10));

        assertThat(process.stop(Duration.ofMillis(300))).isEqualTo(128 + 9);
        assertThat(process.isAlive()).isFalse();
    }

    @Test
    void failsFastWithTheEndOfTheLogWhenTheProcessExitsBeforeItIsReady() {
        var process = shell("doomed", "echo 'Address already in use'; exit 7");
        process.start();

        assertThatThrownBy(() -> process.awaitReady(() -> false, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("doomed exited with code 7 before it was ready")
                .hasMessageContaining("Address already in use");
    }

    @Test
    void runsInASessionOfItsOwnSoThatCtrlCReachesOnlyTheLauncher() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "needs Linux /proc");
        var process =
                new ManagedProcess("sleeper", List.of("sleep", "30"), directory, directory.resolve("sleeper.log"));
        process.start();
        try {
            // setsid replaces itself with the command (exec), keeping the pid the launcher knows
            process.awaitReady(() -> statFields(process.pid()).get(1).equals("(sleep)"), Duration.ofSeconds(10));
            var stat = statFields(process.pid());
            assertThat(stat.get(5)).as("session id").isEqualTo(String.valueOf(process.pid()));
            assertThat(stat.get(5))
                    .isNotEqualTo(statFields(ProcessHandle.current().pid()).get(5));
        } finally {
            process.kill();
        }
    }

    private static long linesSaying(ManagedProcess process, String text) {
        return process.logTail(20).lines().filter(text::equals).count();
    }

    private ManagedProcess shell(String name, String script) {
        return new ManagedProcess(name, List.of("sh", "-c", script), directory, directory.resolve(name + ".log"));
    }

    private static List<String> statFields(long pid) throws Exception {
        return List.of(Files.readString(Path.of("/proc/" + pid + "/stat")).split(" "));
    }
}
