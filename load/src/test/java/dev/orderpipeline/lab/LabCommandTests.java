package dev.orderpipeline.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.Table;
import dev.orderpipeline.lab.report.TestHeaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;

class LabCommandTests {

    record Settings(int rate) {}

    /** A report of nothing, whose verdict is given. */
    record Verdict(boolean holds) implements LabReport {

        @Override
        public ReportHeader header() {
            return TestHeaders.of("verdict", Duration.ofMinutes(1));
        }

        @Override
        public Record settings() {
            return new Settings(10);
        }

        @Override
        public String summary() {
            return holds ? "Every criterion holds." : "A criterion does not hold.";
        }

        @Override
        public List<Table> tables() {
            return List.of();
        }

        @Override
        public List<Chart> charts() {
            return List.of();
        }
    }

    /** A command that returns its report without starting anything. */
    @Command(name = "verdict")
    static final class Fixed extends LabCommand {

        private final LabReport report;

        Fixed(LabReport report, Path output) {
            this.report = report;
            this.output = output;
        }

        @Override
        protected LabReport execute(Progress progress) {
            return report;
        }

        @Override
        protected LabReport run(StackTarget target, Progress progress) {
            throw new UnsupportedOperationException("starts no stack");
        }
    }

    @Test
    void aRunThatDoesNotHoldExitsWithCodeOneAfterWritingItsReport(@TempDir Path folder) {
        var code = new Fixed(new Verdict(false), folder).call();

        assertThat(code).isEqualTo(1);
        assertThat(folder.resolve(ReportWriter.MARKDOWN_FILE)).exists();
    }

    @Test
    void aRunThatHoldsExitsWithCodeZero(@TempDir Path folder) throws Exception {
        var code = new Fixed(new Verdict(true), folder).call();

        assertThat(code).isZero();
        assertThat(Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE))).contains("Every criterion holds.");
    }
}
