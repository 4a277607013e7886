package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LocalStackCommandTests {

    /** The repository root: surefire runs in the module directory. */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    /** An option the bin/run script handles itself, as a {@code case} arm: {@code --no-build)}. */
    private static final Pattern SCRIPT_OPTION = Pattern.compile("^\\s*(--[a-z-]+)[|)]", Pattern.MULTILINE);

    /** A command line of bin/run in the docs, up to the end of its code span or line. */
    private static final Pattern DOCUMENTED_COMMAND = Pattern.compile("bin/run([^`\n]*)");

    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z-]*");

    @Test
    void knowsEveryOptionTheReadmeAndTheDocsGiveIt() throws IOException {
        var help = new CommandLine(new LocalStackCommand()).getUsageMessage();
        var documents = new ArrayList<Path>(List.of(PROJECT.resolve("README.md")));
        try (var docs = Files.list(PROJECT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).forEach(documents::add);
        }
        var named = new TreeSet<String>();
        for (var document : documents) {
            DOCUMENTED_COMMAND
                    .matcher(Files.readString(document))
                    .results()
                    .forEach(command ->
                            OPTION.matcher(command.group(1)).results().forEach(option -> named.add(option.group())));
        }

        assertThat(named).contains("--workers", "--no-build");
        for (var option : named) {
            assertThat(help)
                    .as("bin/run --help, for %s named in the docs", option)
                    .containsPattern(Pattern.quote(option) + "[=\\s,]");
        }
    }

    @Test
    void listsInItsHelpEveryOptionTheScriptHandlesItself() throws IOException {
        var help = new CommandLine(new LocalStackCommand()).getUsageMessage();
        var scriptOptions = SCRIPT_OPTION
                .matcher(Files.readString(PROJECT.resolve("bin/run")))
                .results()
                .map(match -> match.group(1))
                .toList();

        assertThat(scriptOptions).contains("--no-build");
        for (var option : scriptOptions) {
            assertThat(help).as("bin/run --help").contains(option);
        }
    }
}
