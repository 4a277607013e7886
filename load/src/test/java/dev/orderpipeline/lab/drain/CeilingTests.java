package dev.orderpipeline.lab.drain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.report.ReportWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine;

/** The ceiling's statements on a real PostgreSQL, at a size a test can afford. */
class CeilingTests {

    /**
     * Enough for the largest batch size to have a warm-up batch and a timed one; each command at batch size 1 is a
     * commit of its own, so more only costs time.
     */
    private static final int COMMANDS = 400;

    private static DataSource database;

    private static String url = "";

    private static @Nullable String password;

    @TempDir
    Path output;

    @BeforeAll
    static void database() {
        var postgres = Postgres.forTests();
        var source = new PGSimpleDataSource();
        url = postgres.createDatabase("lab_ceiling");
        password = postgres.password();
        source.setURL(url);
        source.setUser(postgres.user());
        if (postgres.password() != null) {
            source.setPassword(postgres.password());
        }
        Ceiling.migrate(source);
        database = source;
    }

    @Test
    void appliesEveryCommandOnceDurablyAndKeepsTheInvariants() throws Exception {
        var settings = new CeilingSettings(List.of(1, 10, 100, 200), COMMANDS, Duration.ofMinutes(1), 1);

        var runs = new Ceiling(database, settings, Progress.silent()).run();

        assertThat(runs).extracting(CeilingRun::batchSize).containsExactly(1, 10, 100, 200);
        var checker = new InvariantChecker(database);
        for (var run : runs) {
            assertThat(run.invariants().holds())
                    .as("k=%d: %s", run.batchSize(), run.invariants().violations())
                    .isTrue();
            var truth = checker.check(run.productId(), 10 * COMMANDS);
            assertThat(truth.holds()).isTrue();
            // every command applied: warm-up and timed part together
            assertThat(truth.completedOrders()).isEqualTo(COMMANDS);
            assertThat(truth.stockLeft()).isEqualTo(9 * COMMANDS);
            assertThat(truth.payments()).isEqualTo(COMMANDS);
            assertThat(run.warmupCommands() + run.commands()).isEqualTo(COMMANDS);
            assertThat(run.batches()).isEqualTo((long) Math.ceil((double) run.commands() / run.batchSize()));
            assertThat(run.perSecond()).isPositive();
            assertThat(run.batchLatency().count()).isEqualTo(run.batches());
        }
        try (var connection = database.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT count(*), count(*) FILTER (WHERE pc.outcome = 'COMPLETED')
                        FROM processed_command pc JOIN orders o ON o.id = pc.order_id
                        WHERE o.product_id = ANY(?)
                        """)) {
            statement.setArray(
                    1,
                    connection.createArrayOf(
                            "uuid", runs.stream().map(CeilingRun::productId).toArray()));
            try (var rows = statement.executeQuery()) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(4L * COMMANDS);
                assertThat(rows.getLong(2)).isEqualTo(4L * COMMANDS);
            }
        }
    }

    /** The lock strategies' case: one checkout per transaction, many connections queueing on the one row. */
    @Test
    void manyWritersOnOneRowApplyEveryCommandOnce() {
        var settings = new CeilingSettings(List.of(1), COMMANDS, Duration.ofMinutes(1), 8);

        var run = new Ceiling(database, settings, Progress.silent()).run().getFirst();

        var truth = new InvariantChecker(database).check(run.productId(), 10 * COMMANDS);
        assertThat(truth.holds()).as(truth.violations().toString()).isTrue();
        assertThat(truth.completedOrders()).isEqualTo(COMMANDS);
        assertThat(truth.payments()).isEqualTo(COMMANDS);
        assertThat(run.warmupCommands() + run.commands()).isEqualTo(COMMANDS);
        // every writer warms up on its own share: 50 orders each, the first 50 / 20 = 2 untimed
        assertThat(run.warmupCommands()).isEqualTo(8 * 2);
        assertThat(run.writers()).isEqualTo(8);
        assertThat(run.batchLatency().count()).isEqualTo(run.commands());
        assertThat(run.perSecond()).isPositive();
    }

    /** What {@code bin/lab ceiling} was: the drain command measuring the ceiling alone, on a database only. */
    @Test
    void measuresTheCeilingAloneOnADatabaseOnly() throws Exception {
        var args = new ArrayList<>(List.of(
                "--ceiling-only",
                "--database-url=" + url,
                "--ceiling-batch-sizes=1,100",
                "--ceiling-commands=" + COMMANDS,
                "--output=" + output));
        if (password != null) {
            args.add("--database-password=" + password);
        }

        var exit = new CommandLine(new DrainCommand()).execute(args.toArray(String[]::new));

        assertThat(exit).isZero();
        var report = ReportWriter.JSON.readValue(
                output.resolve(ReportWriter.JSON_FILE).toFile(), DrainReport.class);
        assertThat(report.run()).isNull();
        assertThat(report.ceiling()).extracting(CeilingRun::batchSize).containsExactly(1, 100);
        assertThat(report.ceiling())
                .allSatisfy(run -> assertThat(run.invariants().holds()).isTrue());
    }

    @Test
    void stopsAtTheDurationAndRemovesTheOrdersItDidNotReach() {
        var settings = new CeilingSettings(List.of(1), 5_000, Duration.ofMillis(200), 1);

        var run = new Ceiling(database, settings, Progress.silent()).run().getFirst();

        assertThat(run.warmupCommands() + run.commands()).isLessThan(5_000);
        var truth = new InvariantChecker(database).check(run.productId(), 50_000);
        assertThat(truth.holds()).as(truth.violations().toString()).isTrue();
        assertThat(truth.completedOrders()).isEqualTo(run.warmupCommands() + run.commands());
    }

    @Test
    void derivesTheCommandIdsTheWorkerWouldUse() throws Exception {
        var run = new Ceiling(
                        database, new CeilingSettings(List.of(50), 100, Duration.ofMinutes(1), 1), Progress.silent())
                .run()
                .getFirst();

        try (var connection = database.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT o.id, pc.command_id FROM orders o JOIN processed_command pc ON pc.order_id = o.id
                        WHERE o.product_id = ?
                        """)) {
            statement.setObject(1, run.productId());
            try (var rows = statement.executeQuery()) {
                var count = 0;
                while (rows.next()) {
                    assertThat(rows.getObject(2, java.util.UUID.class))
                            .isEqualTo(CheckoutCommand.idFor(rows.getObject(1, java.util.UUID.class)));
                    count++;
                }
                assertThat(count).isEqualTo(100);
            }
        }
    }
}
