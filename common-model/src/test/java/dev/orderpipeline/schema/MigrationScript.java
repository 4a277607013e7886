package dev.orderpipeline.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Flyway SQL migration as the rules read it: its version, whether Flyway runs it in a transaction (its {@code
 * .sql.conf}), and its statements, upper-cased on one line each, without comments or the bodies of functions.
 */
record MigrationScript(String name, int version, boolean transactional, List<String> statements) {

    /** The migrations of common-model's sources: surefire runs in the module directory. */
    static final Path DIRECTORY = Path.of("src/main/resources/db/migration");

    private static final Pattern FILE_NAME = Pattern.compile("V(\\d+)__\\w+\\.sql");

    private static final Pattern COMMENT = Pattern.compile("--[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);

    /** A dollar-quoted body ({@code $$ ... $$} or {@code $tag$ ... $tag$}): PL/pgSQL, not DDL to judge. */
    private static final Pattern DOLLAR_QUOTED = Pattern.compile("\\$(\\w*)\\$.*?\\$\\1\\$", Pattern.DOTALL);

    static List<MigrationScript> all() {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            return files.filter(file ->
                            FILE_NAME.matcher(file.getFileName().toString()).matches())
                    .map(MigrationScript::read)
                    .sorted((left, right) -> Integer.compare(left.version(), right.version()))
                    .toList();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static MigrationScript read(Path file) {
        try {
            var name = file.getFileName().toString();
            var config = file.resolveSibling(name + ".conf");
            var transactional = !Files.exists(config)
                    || !Files.readString(config).replace(" ", "").contains("executeInTransaction=false");
            return of(name, transactional, Files.readString(file));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static MigrationScript of(String name, boolean transactional, String sql) {
        var matcher = FILE_NAME.matcher(name);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a versioned migration: " + name);
        }
        var code = DOLLAR_QUOTED.matcher(COMMENT.matcher(sql).replaceAll(" ")).replaceAll("\\$\\$");
        var statements = Arrays.stream(code.split(";"))
                .map(statement -> statement.replaceAll("\\s+", " ").strip().toUpperCase(Locale.ROOT))
                .filter(statement -> !statement.isEmpty())
                .toList();
        return new MigrationScript(name, Integer.parseInt(matcher.group(1)), transactional, statements);
    }
}
