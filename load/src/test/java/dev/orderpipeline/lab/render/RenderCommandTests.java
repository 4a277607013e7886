package dev.orderpipeline.lab.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.orderpipeline.lab.report.ReportWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RenderCommandTests {

    /** The committed lab results: surefire runs in the module directory. */
    private static final Path RESULTS = Path.of("..", "docs", "results");

    @TempDir
    Path folder;

    @Test
    void readsEveryCommittedReportAsTheTypeItsHeaderNames() throws IOException {
        try (Stream<Path> folders = Files.list(RESULTS)) {
            var reports = folders.filter(path -> Files.isRegularFile(path.resolve(ReportWriter.JSON_FILE)))
                    .toList();
            assertThat(reports).isNotEmpty();
            for (var report : reports) {
                var read = RenderCommand.read(report);
                assertThat(RenderCommand.TYPES.get(read.header().command()))
                        .as(report.toString())
                        .isEqualTo(read.getClass());
            }
        }
    }

    @Test
    void writesTheMarkdownAndChartsAgainFromTheJson() throws IOException {
        var source = RESULTS.resolve("rebalance").resolve(ReportWriter.JSON_FILE);
        Files.copy(source, folder.resolve(ReportWriter.JSON_FILE));

        var exit = new CommandLine(new RenderCommand()).execute(folder.toString());

        assertThat(exit).isZero();
        assertThat(folder.resolve(ReportWriter.MARKDOWN_FILE)).content().contains("# Lab group", "Rebalances");
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.filter(path -> path.toString().endsWith(".png"))).isNotEmpty();
        }
    }

    @Test
    void refusesAFolderWithoutAReport() {
        assertThatThrownBy(() -> RenderCommand.read(folder))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("no report.json");
    }
}
