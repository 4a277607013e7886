package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each app's JVM flags have one home, {@code order-api/jvm.options} and {@code checkout-worker/jvm.options}: the
 * launcher (bin/run and the lab) puts them on the app's command line, and the container image hands the file itself
 * to {@code java}; both must come to the same JVM. The launcher adds the worker's AOT cache when the build made it.
 */
class AppJvmOptionsTests {

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
    void launchesApisWithTheFlagsOfTheirOwnFile(@TempDir Path project) throws IOException {
        var config = StackConfig.defaults(project);
        Files.createDirectories(config.apiJvmOptionsFile().getParent());
        Files.writeString(config.apiJvmOptionsFile(), "-Xmx99m\n");

        assertThat(config.apiJvmOptions()).containsExactly("-Xmx99m");
    }

    @Test
    void replacesTheFilesFlagsWholeWithTheOnesGiven(@TempDir Path project) {
        var config = StackConfig.defaults(project).withAppOptions(List.of("-Xmx512m"), List.of());

        assertThat(config.workerJvmOptions()).containsExactly("-Xmx512m");
        assertThat(config.apiJvmOptions()).containsExactly("-Xmx512m");
    }

    @Test
    void startsWorkersFromTheExtractedJarWithTheAotCacheWhenTheBuildMadeIt(@TempDir Path project) throws IOException {
        var config = workerExtractedWithFlags(project, "-Xmx77m");
        Files.writeString(config.workerAotCache(), "");

        assertThat(config.workerLaunchJar()).isEqualTo(config.workerExtractedJar());
        assertThat(config.workerJvmOptions()).containsExactly("-Xmx77m", "-XX:AOTCache=" + config.workerAotCache());
        assertThat(config.withAppOptions(List.of("-Xmx512m"), List.of()).workerJvmOptions())
                .as("given flags are not those the cache was trained with")
                .containsExactly("-Xmx512m");
        assertThat(config.asReported(config.workerJvmOptions()))
                .as("a report names the cache inside the project, not the directory the run came from")
                .containsExactly("-Xmx77m", "-XX:AOTCache=checkout-worker/target/aot/checkout-worker.aot");
    }

    @Test
    void startsWorkersFromTheExecutableJarWithoutACacheWhenTheBuildMadeNone(@TempDir Path project) throws IOException {
        var config = workerExtractedWithFlags(project, "-Xmx77m");

        assertThat(config.workerLaunchJar()).isEqualTo(config.workerJar());
        assertThat(config.workerJvmOptions()).containsExactly("-Xmx77m");
    }

    @Test
    void givesTheJvmTheSameFlagsOnTheCommandLineAsTheImageGivesItThroughTheFile() throws Exception {
        var config = StackConfig.defaults(PROJECT);
        for (var app : List.of(
                Map.entry(config.workerJvmOptions(), config.workerJvmOptionsFile()),
                Map.entry(config.apiJvmOptions(), config.apiJvmOptionsFile()))) {
            // the AOT cache is the build's artifact for this JDK and the extracted jar, not a flag of the file
            var flags = app.getKey().stream()
                    .filter(flag -> !flag.startsWith("-XX:AOTCache="))
                    .toList();
            assertThat(flags).as("%s", app.getValue()).isNotEmpty().allMatch(flag -> flag.startsWith("-"));
            assertThat(flagsTheJvmRunsWith(flags)).isEqualTo(flagsTheJvmRunsWith(List.of("@" + app.getValue())));
        }
    }

    /** A project whose worker has the given flags and an extracted jar (an empty file: nothing runs it here). */
    private static StackConfig workerExtractedWithFlags(Path project, String flags) throws IOException {
        var config = StackConfig.defaults(project);
        Files.createDirectories(config.workerJvmOptionsFile().getParent());
        Files.writeString(config.workerJvmOptionsFile(), flags + "\n");
        Files.createDirectories(config.workerExtractedJar().getParent());
        Files.writeString(config.workerExtractedJar(), "");
        return config;
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
