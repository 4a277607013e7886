package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.CommittedReports;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.TestHeaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaosReportTests {

    @TempDir
    Path folder;

    @Test
    void writesTheVerdictTheFaultsAndATimelineWithTheFaultWindowsAndReadsBackTheSameReport() throws Exception {
        var report = report();

        var markdown = writtenAndReadBack(report);

        assertThat(folder.resolve("timeline.png")).isNotEmptyFile();
        assertThat(markdown)
                .contains(
                        "## Verdict",
                        "## Faults and recovery",
                        // from, to, then after the fault's end: first decision, caught up
                        "| broker restart | 10.0 s | 26.0 s | 2.0 s | 2.0 s |",
                        "| broker restart | 10.0-20.0 s | made up |",
                        "## Poison records in the dead-letter topics",
                        "| garbage-bytes | checkout.commands | 2 | 2 |",
                        "![Checkouts per second under faults");
        assertThat(ReportWriter.console(report)).contains("Verdict", "Faults and recovery");
    }

    @Test
    void marksEachFaultWindowOnTheTimeCharts() {
        var report = report();

        assertThat(report.charts())
                .map(chart -> ((Chart.Lines) chart).events())
                .allSatisfy(events -> assertThat(events).containsExactly(new Chart.Event(10, 20, "broker-restart")));
    }

    @Test
    void showsTheCartsPlacedAndTheCartsEachFaultCutThroughWhenTheLoadHadCarts() throws Exception {
        var run = new ChaosFixtures();
        run.cart(9.0, 25.0);
        run.checkout(0, 5.0, "202", 5.1);
        run.fault(FaultKind.WORKER_KILL, "kill -9 #1", 10, 20);
        run.soundBooks();
        run.carts = new CartVerdict(1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0);
        var settings = ChaosFixtures.settings(FaultKind.WORKER_KILL);
        var report = new ChaosReport(report().header(), settings, ChaosJudge.judge(run.evidence(settings, 26)));

        assertThat(writtenAndReadBack(report))
                .contains(
                        "| carts mid saga |",
                        "(1 placed)",
                        "| worker-kill hits carts mid-saga | at least 1 cart in flight during each: accepted before its end,"
                                + " decided after its start | kill -9 #1: 1 | yes |");
    }

    @Test
    void rendersEveryCommittedChaosReport() {
        for (var folder : List.of("chaos", "chaos-broker-kill", "chaos-carts", "chaos-worker-freeze")) {
            var report = CommittedReports.read(folder, ChaosReport.class);

            assertThat(report.run().checks()).as(folder).isNotEmpty().allMatch(Check::holds);
            assertThat(ReportWriter.console(report)).as(folder).contains("Verdict", "What each fault did");
        }
    }

    /** Writes the report, checks that its report.json reads back as the same report, and returns its Markdown. */
    private String writtenAndReadBack(ChaosReport report) throws Exception {
        ReportWriter.write(report, folder);
        assertThat(ReportWriter.JSON.readValue(
                        folder.resolve(ReportWriter.JSON_FILE).toFile(), ChaosReport.class))
                .isEqualTo(report);
        return Files.readString(folder.resolve(ReportWriter.MARKDOWN_FILE));
    }

    /** A broker restart from 10 to 20 s, three checkouts decided at 5.1, 22.0 and 23.0 s, two poison records. */
    private static ChaosFixtures fixtures() {
        var run = new ChaosFixtures();
        run.checkout(0, 5.0, "202", 5.1);
        run.checkout(1, 9.9, "202", 22.0);
        var refused = run.checkout(0, 14.0, "503", 23.0);
        run.retry(refused, 2, 21.0, "202");
        run.fault(FaultKind.BROKER_RESTART, "broker restart", 10, 20);
        run.soundBooks();
        run.poison.add(new PoisonFigures(PoisonKind.GARBAGE_BYTES, 2, 2, Map.of("unreadable command: <n>", 2L), 1.5));
        return run;
    }

    private static ChaosReport report() {
        var run = fixtures();
        var settings = ChaosFixtures.settings(FaultKind.BROKER_RESTART);
        var header = TestHeaders.of("chaos", Duration.ofMinutes(5));
        return new ChaosReport(header, settings, ChaosJudge.judge(run.evidence(settings, 26)));
    }
}
