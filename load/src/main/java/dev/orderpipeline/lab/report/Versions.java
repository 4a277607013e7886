package dev.orderpipeline.lab.report;

import dev.orderpipeline.lab.pipeline.Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.AppInfoParser;
import org.jspecify.annotations.Nullable;

/** Versions worth writing next to figures: the lab's, the JDK's, Kafka's client, PostgreSQL, the code's commit. */
public final class Versions {

    private Versions() {}

    /** The commit and app jars need the repository, the PostgreSQL version a database the lab can read. */
    public static Map<String, String> collect(@Nullable Path projectDirectory, @Nullable Database database) {
        var versions = new LinkedHashMap<String, String>();
        versions.put(
                "lab", Objects.requireNonNullElse(Versions.class.getPackage().getImplementationVersion(), "dev"));
        versions.put("jdk", Runtime.version().toString());
        versions.put("kafkaClients", AppInfoParser.getVersion());
        if (database != null) {
            try {
                versions.put("postgresql", database.serverVersion());
            } catch (RuntimeException ex) {
                versions.put("postgresql", Cells.NOT_AVAILABLE);
            }
        }
        if (projectDirectory != null) {
            var commit = gitCommit(projectDirectory);
            if (commit != null) {
                versions.put("commit", commit);
            }
            jar(projectDirectory.resolve("order-api/target/order-api.jar"), "orderApi", versions);
            jar(projectDirectory.resolve("checkout-worker/target/checkout-worker.jar"), "checkoutWorker", versions);
        }
        return versions;
    }

    private static void jar(Path jar, String name, Map<String, String> versions) {
        if (!Files.isRegularFile(jar)) {
            return;
        }
        try (var file = new JarFile(jar.toFile())) {
            var manifest = file.getManifest();
            var version = manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
            versions.put(
                    name,
                    Objects.requireNonNullElse(version, "?") + " (jar built "
                            + Files.getLastModifiedTime(jar).toInstant() + ")");
        } catch (IOException ex) {
            versions.put(name, Cells.NOT_AVAILABLE);
        }
    }

    /** The checked-out commit, with {@code -dirty} when the work tree has changes; null outside a repository. */
    private static @Nullable String gitCommit(Path directory) {
        var commit = git(directory, "rev-parse", "--short=12", "HEAD");
        if (commit == null || commit.isEmpty()) {
            return null;
        }
        var status = git(directory, "status", "--porcelain", "--untracked-files=no");
        return status == null || status.isEmpty() ? commit : commit + "-dirty";
    }

    private static @Nullable String git(Path directory, String... arguments) {
        var command = Stream.concat(Stream.of("git", "-C", directory.toString()), Stream.of(arguments))
                .toList();
        try {
            var process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                return null;
            }
            return output;
        } catch (IOException ex) {
            return null;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
