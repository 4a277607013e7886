package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's JVM flags have one home, {@code checkout-worker/jvm.options}: the launcher (bin/run and the lab) puts
 * them on the worker's command line, and the container image hands the file itself to {@code java}; both must come
 * to the same JVM.
 */
class WorkerJvmOptionsTests {

    /** The repository root: surefire runs in the module directory. */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void launchesWorkersWithTheFlagsOfTheirJvmOptionsFile(@TempDir Path project) throws IOException {
        var config = StackConfig.defaults(project);
        Files.createDirectories(config.workerJvmOptionsFile().getParent());
        Files.writeString(config.workerJvmOptionsFile(), """
                # why the heap is small
                -Xmx77m

                  -XX:+UseSerialGC
                """);

        assertThat(config.workerJvmOptions()).containsExactly("-Xmx77m", "-XX:+UseSerialGC");
    }

    @Test
    void replacesTheFilesFlagsWholeWithTheOnesGiven(@TempDir Path project) {
        var config = StackConfig.defaults(project).withAppOptions(List.of("-Xmx512m"), List.of());

        assertThat(config.workerJvmOptions()).containsExactly("-Xmx512m");
    }

    @Test
    void givesTheJvmTheSameFlagsOnTheCommandLineAsTheImageGivesItThroughTheFile() throws Exception {
        var config = StackConfig.defaults(PROJECT);
        var flags = config.workerJvmOptions();

        assertThat(flags).isNotEmpty().allMatch(flag -> flag.startsWith("-"));
        assertThat(flagsTheJvmRunsWith(flags))
                .isEqualTo(flagsTheJvmRunsWith(List.of("@" + config.workerJvmOptionsFile())));
    }

    private static String flagsTheJvmRunsWith(List<String> options) throws Exception {
        var command = new ArrayList<String>();
        command.add(ManagedProcess.javaExecutable());
        command.addAll(options);
        command.add("-XX:+PrintCommandLineFlags");
        command.add("-version");
        var process = new ProcessBuilder(command).redirectErrorStream(true).start();
        var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines().findFirst().orElseThrow();
    }
}
