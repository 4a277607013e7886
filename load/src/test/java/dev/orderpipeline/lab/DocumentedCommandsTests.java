package dev.orderpipeline.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code bin/lab} command the README, the guides under docs and the results index quote parses: its experiment and every option it
 * names exist, and each value converts. A command or an option renamed or dropped without its docs fails here.
 */
class DocumentedCommandsTests {

    /** The repository's root: the lab's tests run in the load module. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A command as quoted: from {@code bin/lab} to the end of the code span or the shell command. */
    private static final Pattern INLINE = Pattern.compile("`[^`]*?(bin/lab [^`]*)`");

    /** Where a quoted command ends inside a shell line: a pipe, a redirection, a comment, the end of a $(...). */
    private static final Pattern SHELL_END = Pattern.compile("\\s*(\\)|\\||>|;|&&|#|\\s{2,}\\().*$");

    /** Placeholders the docs write for a value of the reader's choice, and a value that stands for them here. */
    private static final Map<String, String> PLACEHOLDERS =
            Map.of("N", "300", "DIR...", "docs/results/chaos", "COMMANDS", "1000");

    @Test
    void everyQuotedLabCommandParses() throws IOException {
        var commands = quotedCommands();
        assertThat(commands).as("bin/lab commands quoted in the docs").hasSizeGreaterThan(40);

        var failures = new ArrayList<String>();
        commands.forEach((command, where) -> {
            var args = arguments(command);
            if (args.isEmpty()) {
                return; // "bin/lab <command> --help" and the like: no experiment named
            }
            var lab = new CommandLine(new Lab());
            if (args.size() == 1) { // a command named in the prose: "bin/lab token mints ..."
                if (!lab.getSubcommands().containsKey(args.getFirst())) {
                    failures.add(where + ": " + command + "\n    no such command");
                }
                return;
            }
            try {
                lab.parseArgs(args.toArray(String[]::new));
            } catch (CommandLine.ParameterException ex) {
                failures.add(where + ": " + command + "\n    " + ex.getMessage());
            }
        });
        assertThat(failures).as("quoted commands that do not parse").isEmpty();
    }

    @Test
    void aRenamedOptionIsCaught() {
        var args = arguments("bin/lab soak --strategies kafka --rate-list 100");
        assertThat(args).containsExactly("soak", "--strategies", "kafka", "--rate-list", "100");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new CommandLine(new Lab()).parseArgs(args.toArray(String[]::new)))
                .isInstanceOf(CommandLine.UnmatchedArgumentException.class);
    }

    /** The commands, each with the first file and line that quotes it. */
    private static Map<String, String> quotedCommands() throws IOException {
        var commands = new LinkedHashMap<String, String>();
        List<Path> files;
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            files = Stream.concat(
                            Stream.of(ROOT.resolve("README.md"), ROOT.resolve("docs/results/README.md")),
                            docs.filter(p -> p.toString().endsWith(".md")))
                    .sorted()
                    .toList();
        }
        for (var file : files) {
            var name = ROOT.relativize(file).toString();
            var fenced = false;
            var text = new StringBuilder();
            var lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                var line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                if (!fenced) {
                    text.append(line).append(' ');
                    continue;
                }
                int at = line.indexOf("bin/lab ");
                if (at < 0) {
                    continue;
                }
                var command = new StringBuilder(line.substring(at));
                while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
                    command.setLength(command.length() - 1);
                    command.append(' ').append(lines.get(++i).strip());
                }
                commands.putIfAbsent(SHELL_END.matcher(command).replaceFirst("").strip(), name + ":" + (i + 1));
            }
            var inline = INLINE.matcher(text);
            while (inline.find()) {
                commands.putIfAbsent(
                        SHELL_END.matcher(inline.group(1)).replaceFirst("").strip(), name);
            }
        }
        return commands;
    }

    /** The lab's arguments of a quoted command: {@code bin/lab} and the script's own {@code --no-build} dropped. */
    private static List<String> arguments(String command) {
        var words = new ArrayList<>(Arrays.asList(command.strip().split("\\s+")));
        words.removeFirst();
        words.remove("--no-build");
        if (words.isEmpty()
                || words.getFirst().startsWith("<")
                || words.getFirst().startsWith("-")) {
            return List.of();
        }
        return words.stream()
                .filter(word -> !word.startsWith("[") && !word.equals("..."))
                .map(word -> word.startsWith("<") ? "placeholder" : PLACEHOLDERS.getOrDefault(word, word))
                .toList();
    }
}
