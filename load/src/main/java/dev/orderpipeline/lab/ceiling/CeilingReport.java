package dev.orderpipeline.lab.ceiling;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the ceiling measured: per batch size the rate one durable writer reaches, and the cost of its commits. */
public record CeilingReport(ReportHeader header, CeilingSettings settings, List<CeilingRun> runs) implements LabReport {

    public CeilingReport {
        runs = List.copyOf(runs);
    }

    @Override
    public String summary() {
        return "The worker's per-command work (idempotency row, conditional decrement of the hot product's stock, order"
                + " status, payment) applied straight through JDBC by " + writers(settings.writers())
                + ", k commands per transaction with"
                + " four set-based statements, no Kafka, synchronous_commit " + settings.synchronousCommit()
                + ". Orders were inserted before (set-based) and are not timed. This is the bar the worker is"
                + " measured against.";
    }

    @Override
    public List<Table> tables() {
        return List.of(table(runs, settings.writers()));
    }

    private static String writers(int writers) {
        return writers == 1 ? "one writer" : writers + " writers at once on the same product";
    }

    /** The ceiling table, also shown in the drain and throughput reports. */
    public static Table table(List<CeilingRun> runs, int writers) {
        return Table.of(
                "Ceiling: " + writers(writers) + ", k commands per transaction",
                List.<Column<CeilingRun>>of(
                        Column.of("k", run -> Integer.toString(run.batchSize())),
                        Column.of("Commands", run -> Long.toString(run.commands())),
                        Column.of("Transactions", run -> Long.toString(run.batches())),
                        Column.of("Seconds", run -> Cells.decimal(run.seconds(), 2)),
                        Column.of("Commands/s", run -> Cells.decimal(run.perSecond(), 0)),
                        Column.of("µs/command", run -> Cells.decimal(run.microsPerCommand(), 1)),
                        Column.of("Batch p50", run -> Cells.duration(run.batchLatency(), Latency::p50Ms)),
                        Column.of("Batch p99", run -> Cells.duration(run.batchLatency(), Latency::p99Ms)),
                        Column.of("Batch max", run -> Cells.duration(run.batchLatency(), Latency::maxMs)),
                        Column.of("WAL syncs/tx", CeilingReport::walSyncsPerTransaction),
                        Column.of("Invariants", run -> Cells.invariants(run.invariants()))),
                runs,
                "Timed after a warm-up of a few transactions. Batch: one transaction, first statement to end of commit."
                        + " WAL syncs per transaction (pg_stat_wal): about 1 when every commit waits for its own flush.");
    }

    private static String walSyncsPerTransaction(CeilingRun run) {
        var server = run.server();
        return server == null || run.batches() == 0
                ? Cells.NOT_AVAILABLE
                : Cells.decimal((double) server.walSyncs() / run.batches(), 2);
    }

    @Override
    public List<Chart> charts() {
        if (runs.isEmpty()) {
            return List.of();
        }
        var rate = new LinkedHashMap<String, Map<String, Number>>();
        var latency = new LinkedHashMap<String, Map<String, Number>>();
        for (var run : runs) {
            var k = "k=" + run.batchSize();
            rate.computeIfAbsent("commands/s", key -> new LinkedHashMap<>()).put(k, run.perSecond());
            latency.computeIfAbsent("p50", key -> new LinkedHashMap<>())
                    .put(k, run.batchLatency().p50Ms());
            latency.computeIfAbsent("p99", key -> new LinkedHashMap<>())
                    .put(k, run.batchLatency().p99Ms());
        }
        // batch sizes from 1 to 1,000 move both figures by decades: a log axis when they do
        return List.of(
                new Chart.Bars(
                        "ceiling-rate",
                        "Ceiling: commands per second by batch size",
                        "commands/s",
                        false,
                        rate,
                        Chart.Scale.AUTO),
                new Chart.Bars(
                        "ceiling-batch-latency",
                        "Ceiling: time of one transaction by batch size",
                        "ms",
                        false,
                        latency,
                        Chart.Scale.AUTO));
    }
}
