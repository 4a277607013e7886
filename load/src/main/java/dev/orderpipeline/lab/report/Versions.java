package dev.orderpipeline.lab.report;

import dev.orderpipeline.lab.pipeline.Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Versions worth writing next to figures: PostgreSQL's and the code's commit. The JDK is the {@link Machine}'s; the
 * lab, the apps and the Kafka they run are built from that commit, their versions pinned in its poms.
 */
public final class Versions {

    private Versions() {}

    /** The commit needs the repository, the PostgreSQL version a database the lab can read. */
    public static Map<String, String> collect(@Nullable Path projectDirectory, @Nullable Database database) {
        var versions = new LinkedHashMap<String, String>();
        if (database != null) {
            try {
                versions.put("postgresql", database.serverVersion());
            } catch (RuntimeException ex) {
                versions.put("postgresql", Cells.NOT_AVAILABLE);
            }
        }
        var commit = projectDirectory == null ? null : git(projectDirectory, "rev-parse", "--short=12", "HEAD");
        if (projectDirectory != null && commit != null && !commit.isEmpty()) {
            // a commit with changes in the work tree is not the code that ran
            var status = git(projectDirectory, "status", "--porcelain", "--untracked-files=no");
            versions.put("commit", status == null || status.isEmpty() ? commit : commit + "-dirty");
        }
        return versions;
    }

    /** What git prints, or null outside a repository or without git. */
    private static @Nullable String git(Path directory, String... arguments) {
        var command = new ArrayList<>(List.of("git", "-C", directory.toString()));
        command.addAll(List.of(arguments));
        try {
            var process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 ? output : null;
        } catch (IOException ex) {
            return null;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
