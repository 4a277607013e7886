package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareReportTests {

    @TempDir
    Path folder;

    private final CompareReport report = CompareFixtures.report(
            CompareFixtures.run(
                    "naive",
                    CompareFixtures.columns(
                            new InvariantReport(UUID.randomUUID(), 100, 99, 300, 300, 0, Map.of(), 0, 300, 0, 0))),
            CompareFixtures.run(
                    "kafka",
                    CompareFixtures.columns(new InvariantReport(
                            UUID.randomUUID(),
                            100,
                            0,
                            100,
                            100,
                            200,
                            Map.of("INSUFFICIENT_STOCK", 200L),
                            0,
                            100,
                            0,
                            0))));

    @Test
    void holdsUnlessTheRunOfThePipelineIsUnsafe() {
        var oversold = CompareFixtures.columns(
                new InvariantReport(UUID.randomUUID(), 100, 99, 300, 300, 0, Map.of(), 0, 300, 0, 0));

        assertThat(report.runs().getFirst().invariants().holds()).isFalse();
        assertThat(report.holds()).isTrue();
        assertThat(CompareFixtures.report(CompareFixtures.run("kafka", oversold))
                        .holds())
                .isFalse();
        assertThat(CompareFixtures.report(CompareFixtures.run("saga", oversold)).holds())
                .isFalse();
        // a burst the final wait did not see decided: 50 of 100 orders still open, every unit accounted for
        var undecided = CompareFixtures.columns(
                new InvariantReport(UUID.randomUUID(), 100, 50, 50, 50, 0, Map.of(), 50, 50, 0, 0));
        assertThat(undecided.holds()).isFalse();
        assertThat(CompareFixtures.report(CompareFixtures.run("kafka", undecided))
                        .holds())
                .isTrue();
    }

    @Test
    void writesJsonThatReadsBackToTheSameReport() throws Exception {
        ReportWriter.write(report, folder);

        var read = ReportWriter.JSON.readValue(
                folder.resolve(ReportWriter.JSON_FILE).toFile(), CompareReport.class);

        assertThat(read).isEqualTo(report);
        var json = Files.readString(folder.resolve(ReportWriter.JSON_FILE));
        assertThat(json).contains("\"machine\"", "\"versions\"", "\"startedAt\"", "\"p99Ms\"", "\"drift\" : 299");
    }

    @Test
    void writesTheArticlesTablesInMarkdown() throws Exception {
        ReportWriter.write(report, folder);

        var markdown = Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE));

        assertThat(markdown)
                .contains("## Invariants (read from the database)")
                .contains("| Strategy | Oversell? | Completed | Rejected | Stock left | Drift | Double payments |")
                .contains("| naive | yes | 300 | 0 | 99 | 299 | 0 | 0 |")
                .contains("| kafka | no | 100 | 200 | 0 | 0 | 0 | 0 | 0 | hold |")
                .contains("| naive | 50 ms | 300 ms | 2.17 s | 2.50 s | 50 ms | 300 ms | 2.17 s | 2.50 s |")
                .contains("| kafka | 50 ms | 300 ms | 2.17 s | 2.50 s | 850 ms | 1.60 s | 1.90 s | 2.10 s |")
                .contains("## Cost per checkout")
                .contains("| naive | 300 | 5.53 | n/a | 0.42 | 11.87 | 17.82 | 2.50 | 400 |")
                .contains("| naive-tx | unknown |")
                .doesNotContain("## App processes", "## PostgreSQL");
        assertThat(imageReferences(markdown, Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)")))
                .isNotEmpty()
                .allSatisfy(png -> assertThat(folder.resolve(png)).isRegularFile());
    }

    @Test
    void writesMarkdownThatShowsExistingPngsWithoutAnythingFromTheNetwork() throws Exception {
        var written = ReportWriter.write(report, folder);

        var markdown = Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE));
        var images = imageReferences(markdown, Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)"));

        assertThat(images)
                .containsExactlyInAnyOrder(
                        "checkout-latency.png", "final-latency.png", "invariants.png", "cost-per-checkout.png");
        for (var image : images) {
            var png = folder.resolve(image);
            assertThat(png).isRegularFile();
            assertThat(written).contains(png);
            // a PNG, not an empty file
            assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');
        }
        assertThat(markdown).doesNotContain("http://", "https://").contains("| 299 |");
    }

    @Test
    void printsTheTablesOnTheConsole() {
        var console = ReportWriter.console(report);

        assertThat(console).contains("Invariants (read from the database)");
        var lines = console.lines()
                .filter(line -> line.startsWith("| naive |") || line.startsWith("| kafka |"))
                .toList();
        assertThat(lines).hasSizeGreaterThanOrEqualTo(2);
        assertThat(lines.getFirst()).startsWith("| naive | yes | 300 | 0 | 99 | 299 | 0 | 0 | 0 | oversell");
    }

    private static java.util.List<String> imageReferences(String text, Pattern pattern) {
        return pattern.matcher(text).results().map(match -> match.group(1)).toList();
    }
}
