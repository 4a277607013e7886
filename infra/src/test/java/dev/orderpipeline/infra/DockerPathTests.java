package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Docker path as a user meets it, on real Docker: {@code infra/docker/prove} builds both app images from this
 * repository, starts compose's PostgreSQL, Kafka, order-api and checkout-worker, waits for every container to be
 * healthy, checks out orders through the API container before and after the worker container is killed and after it
 * is replaced, and fails on any step. It takes minutes, the images being built: 9 minutes here with the base images
 * made and the build cache warm, over 20 while other builds loaded the two cores; it fails after 40. So it runs only
 * when asked ({@value #SWITCH}{@code =true} in the environment, {@code bin/test --docker}), and is skipped where no
 * Docker daemon answers or the base images that the Dockerfiles and compose.yaml name are absent
 * ({@code infra/docker/prove --bases-only} makes them from Debian's packages and Maven Central where no registry can
 * be reached).
 */
@EnabledIfEnvironmentVariable(named = DockerPathTests.SWITCH, matches = "true")
class DockerPathTests {

    /** The environment variable that asks for this test: the suite stays within minutes without it. */
    static final String SWITCH = "ORDERPIPELINE_DOCKER_TESTS";

    /** The repository root: surefire runs in the module directory. */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    private static final Path PROVE = PROJECT.resolve("infra/docker/prove");

    @Test
    void buildsTheImagesAndDecidesCheckoutsInDockerThroughAWorkerKilledAndReplaced(@TempDir Path work)
            throws Exception {
        var check = run(work, Duration.ofMinutes(1), "--check");
        assumeThat(check.exitCode())
                .as("Docker and the base images: %s", check.output())
                .isZero();

        var proof = run(
                work,
                Duration.ofMinutes(40),
                "--project",
                "order-pipeline-test-" + ProcessHandle.current().pid());

        assertThat(proof.exitCode()).as(proof.output()).isZero();
        assertThat(proof.output())
                .contains("every container healthy", "Docker restarted it", "a new worker container", "proof complete")
                .contains("stopped and deleted the stack");
        var guide = Files.readString(PROJECT.resolve("docs/operate.md"));
        for (var created : List.of("topics: ", "consumer groups: ")) {
            var names = proof.output()
                    .lines()
                    .filter(line -> line.contains("] " + created))
                    .map(line -> line.substring(line.indexOf(created) + created.length()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no line of " + created + "in " + proof.output()))
                    .strip()
                    .split(" ");
            assertThat(names).as(created).isNotEmpty();
            for (var name : names) {
                assertThat(guide)
                        .as("docs/operate.md names %s, which the apps created in Docker", name)
                        .contains("`" + name + "`");
            }
        }
    }

    private static Result run(Path work, Duration timeout, String... arguments)
            throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add(PROVE.toString());
        command.addAll(List.of(arguments));
        var output = work.resolve("prove-" + arguments[0].replace("-", "") + ".log");
        var process = new ProcessBuilder(command)
                .directory(PROJECT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            // the script's exit trap takes the stack down
            process.destroy();
            process.waitFor(2, TimeUnit.MINUTES);
            process.destroyForcibly();
            throw new AssertionError("infra/docker/prove did not finish within " + timeout + ":\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
        return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    private record Result(int exitCode, String output) {}
}
