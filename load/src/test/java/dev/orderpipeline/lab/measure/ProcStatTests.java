package dev.orderpipeline.lab.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProcStatTests {

    @Test
    void parsesAStatLineWhoseNameHoldsSpacesAndParentheses() {
        var line = "4242 (my (odd) proc) S 17 4242 4242 0 -1 4194560 1234 0 0 0 250 75 10 5 20 0 33 0 100 0 0";

        var stat = ProcStat.parse(line);

        assertThat(stat.pid()).isEqualTo(4242);
        assertThat(stat.command()).isEqualTo("my (odd) proc");
        assertThat(stat.parentPid()).isEqualTo(17);
        assertThat(stat.ticks()).isEqualTo(250 + 75);
        assertThat(stat.reapedChildrenTicks()).isEqualTo(10 + 5);
    }

    @Test
    void readsThisProcessFromProc() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux only");
        var pid = ProcessHandle.current().pid();

        var stat = ProcStat.read(pid);

        assertThat(stat).hasValueSatisfying(own -> {
            assertThat(own.pid()).isEqualTo(pid);
            assertThat(own.parentPid())
                    .isEqualTo(ProcessHandle.current().parent().orElseThrow().pid());
            assertThat(own.ticks()).isPositive();
        });
        assertThat(ProcStat.residentKiB(pid).orElseThrow()).isGreaterThan(1024);
        assertThat(ProcStat.TICKS_PER_SECOND).isPositive();
    }

    @Test
    void aProcessThatIsGoneReadsAsEmpty() {
        assertThat(ProcStat.read(Long.MAX_VALUE)).isEmpty();
        assertThat(ProcStat.residentKiB(Long.MAX_VALUE)).isEmpty();
    }
}
