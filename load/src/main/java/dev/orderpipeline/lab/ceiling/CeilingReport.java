package dev.orderpipeline.lab.ceiling;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
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
                + " status, payment) applied straight through JDBC by one writer, k commands per transaction with"
                + " four set-based statements, no Kafka, synchronous_commit " + settings.synchronousCommit()
                + ". Orders were inserted before (set-based) and are not timed. This is the bar the worker is"
                + " measured against.";
    }

    @Override
    public List<Table> tables() {
        return List.of(table(runs));
    }

    /** The ceiling table, also shown in the drain report. */
    public static Table table(List<CeilingRun> runs) {
        var rows = runs.stream()
                .map(run -> List.of(
                        Integer.toString(run.batchSize()),
                        Long.toString(run.commands()),
                        Long.toString(run.batches()),
                        Cells.decimal(run.seconds(), 2),
                        Cells.decimal(run.perSecond(), 0),
                        Cells.decimal(run.microsPerCommand(), 1),
                        Cells.duration(run.batchLatency(), Latency::p50Ms),
                        Cells.duration(run.batchLatency(), Latency::p99Ms),
                        Cells.duration(run.batchLatency(), Latency::maxMs),
                        run.server() == null || run.batches() == 0
                                ? Cells.NOT_AVAILABLE
                                : Cells.decimal((double) run.server().walSyncs() / run.batches(), 2),
                        run.invariants().holds()
                                ? "hold"
                                : String.join("; ", run.invariants().violations())))
                .toList();
        return new Table(
                "Ceiling: one writer, k commands per transaction",
                List.of(
                        "k",
                        "Commands",
                        "Transactions",
                        "Seconds",
                        "Commands/s",
                        "µs/command",
                        "Batch p50",
                        "Batch p99",
                        "Batch max",
                        "WAL syncs/tx",
                        "Invariants"),
                rows,
                "Timed after a warm-up of a few transactions. Batch: one transaction, first statement to end of commit."
                        + " WAL syncs per transaction (pg_stat_wal): about 1 when every commit waits for its own flush.");
    }

    @Override
    public List<Chart> charts() {
        if (runs.isEmpty()) {
            return List.of();
        }
        var charts = new ArrayList<Chart>();
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
        charts.add(new Chart.Bars(
                "ceiling-rate",
                "Ceiling: commands per second by batch size",
                "commands/s",
                false,
                rate,
                Chart.Scale.AUTO));
        charts.add(new Chart.Bars(
                "ceiling-batch-latency",
                "Ceiling: time of one transaction by batch size",
                "ms",
                false,
                latency,
                Chart.Scale.AUTO));
        return charts;
    }
}
