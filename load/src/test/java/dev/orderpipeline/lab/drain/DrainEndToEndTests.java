package dev.orderpipeline.lab.drain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.TestStack;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.Versions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small drain from the packaged jars, end to end: the stack as processes without a worker, 5,000 checkouts of one
 * hot product on the topic (enough for a backlog that takes the worker several polls of its largest batch), then a worker process started by the lab; the group's lag must reach zero and the
 * database must hold every invariant.
 */
class DrainEndToEndTests {

    private static final int COMMANDS = 5_000;

    @TempDir
    Path workDirectory;

    @TempDir
    Path output;

    @Test
    void drainsTheBacklogToZeroLagAndKeepsEveryInvariant() throws Exception {
        var stack = TestStack.create(workDirectory, "lab_drain", 0);
        var config = stack.config().withPartitions(3);
        var settings = new DrainSettings(
                COMMANDS,
                KeyDistribution.HOT,
                1,
                Duration.ofMillis(500),
                Duration.ofMinutes(5),
                new CeilingSettings(List.of(100), 1_000, Duration.ofSeconds(10), 1));
        var startedAt = Instant.now();

        DrainRun run;
        try (var target = StackTarget.start(config, 1, Duration.ofSeconds(30))) {
            assertThat(target.stack().workers()).isEmpty();

            run = new DrainExperiment(target, settings, Progress.silent()).run();

            var header = new ReportHeader(
                    "drain",
                    target.description(),
                    Machine.current(),
                    Versions.collect(TestStack.PROJECT, target.database()),
                    startedAt,
                    Instant.now());
            ReportWriter.write(new DrainReport(header, settings, run, List.of()), output);
        }

        assertThat(run.perSecondFromStart()).isPositive();
        assertThat(run.results().orders()).isEqualTo(COMMANDS);
        assertThat(run.invariants().holds())
                .as(run.invariants().violations().toString())
                .isTrue();
        assertThat(run.invariants().completed()).isEqualTo(COMMANDS);
        assertThat(run.resources().processes())
                .extracting(usage -> usage.kind())
                .contains(StackTarget.WORKER, "lab");
        for (var ceiling : List.of(run.ceilingBefore(), run.ceilingAfter())) {
            assertThat(ceiling).singleElement().satisfies(k100 -> {
                assertThat(k100.batchSize()).isEqualTo(100);
                assertThat(k100.invariants().holds()).isTrue();
            });
        }

        // the database agrees with the report on its own
        var database = stack.dataSource();
        try (var connection = database.getConnection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT id FROM product WHERE name LIKE 'lab drain-%'")) {
            rows.next();
            var product = rows.getObject(1, java.util.UUID.class);
            var truth = new InvariantChecker(database).check(product, 2 * COMMANDS);
            assertThat(truth.holds()).isTrue();
            assertThat(truth.completedOrders()).isEqualTo(COMMANDS);
        }
        for (var file : List.of(ReportWriter.JSON_FILE, ReportWriter.MARKDOWN_FILE)) {
            assertThat(output.resolve(file)).isNotEmptyFile();
        }
    }
}
