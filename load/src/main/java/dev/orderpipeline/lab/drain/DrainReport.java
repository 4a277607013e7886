package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * What a drain found: the worker's rate against the ceiling, its memory, the drain curve, the invariants; with
 * {@code --ceiling-only}, the ceiling alone.
 *
 * @param run {@code null} when only the ceiling was measured
 * @param ceiling the ceiling measured alone ({@code --ceiling-only}); empty with a drain, whose run holds its ceilings
 */
public record DrainReport(
        ReportHeader header,
        DrainSettings settings,
        @Nullable DrainRun run,
        List<CeilingRun> ceiling) implements LabReport {

    /** The worker's memory budget while draining, which checkout-worker/jvm.options is chosen to meet. */
    static final double RSS_TARGET_MIB = 300;

    public DrainReport {
        // absent from reports of a drain
        ceiling = ceiling == null ? List.of() : List.copyOf(ceiling);
    }

    private DrainRun drain() {
        return Objects.requireNonNull(run, "a drain's run");
    }

    @Override
    public String summary() {
        if (run == null) {
            return "The ceiling alone: the worker's per-command work (idempotency row, conditional decrement of the"
                    + " hot product's stock, order status, payment) applied straight through JDBC by one writer, k"
                    + " commands per transaction with four set-based statements, no Kafka, synchronous_commit "
                    + Objects.requireNonNull(settings.ceiling()).synchronousCommit()
                    + ". Orders were inserted before (set-based) and are not"
                    + " timed. This is the bar the worker is measured against.";
        }
        return String.format(
                Locale.ROOT,
                "%d checkouts (%s) pre-filled on the command topic with no worker running, then %d worker process(es)"
                        + " started and timed from the process start until the consumer group's lag was zero (offsets"
                        + " read with the admin client). The ceiling %s.",
                run.commands(),
                run.keys(),
                run.workers(),
                run.ceilingBefore().isEmpty()
                        ? "was not measured"
                        : "was measured on the same database just before and just after, with no worker running");
    }

    @Override
    public List<Table> tables() {
        if (run == null) {
            return List.of(ceilingTable(ceiling));
        }
        var tables = new ArrayList<Table>();
        tables.add(drainTable());
        if (!run.ceilingBefore().isEmpty()) {
            tables.add(againstCeiling());
            tables.add(ceilingTable(run.ceilingBefore()).titled("Ceiling before the drain"));
            tables.add(ceilingTable(run.ceilingAfter()).titled("Ceiling after the drain"));
        }
        return tables;
    }

    /** The ceiling per batch size. */
    static Table ceilingTable(List<CeilingRun> runs) {
        return Table.of(
                "Ceiling: one writer, k commands per transaction",
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
                        Column.of("WAL syncs/tx", DrainReport::walSyncsPerTransaction),
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

    Table drainTable() {
        var run = drain();
        var worker = run.resources().process(StackTarget.WORKER).orElse(null);
        var invariants = run.invariants();
        var figures = new LinkedHashMap<String, String>();
        figures.put("Commands", Long.toString(run.commands()));
        figures.put("Products / partitions", run.products() + " / " + run.partitions());
        figures.put("Backlog filled at", Cells.decimal(run.producedPerSecond(), 0) + " commands/s");
        figures.put("Worker start to ready", Cells.decimal(run.startToReadySeconds(), 1) + " s");
        figures.put("Worker start to lag 0", Cells.decimal(run.startToDrainedSeconds(), 1) + " s");
        figures.put("Commands/s from the worker's start", Cells.decimal(run.perSecondFromStart(), 0));
        figures.put("First to last result", Cells.decimal(run.decidingSeconds(), 1) + " s");
        figures.put("Commands/s while deciding", Cells.decimal(run.perSecondDeciding(), 0));
        figures.put(
                "Results / duplicates / orders without a result",
                run.results().results() + " / " + run.results().duplicates() + " / "
                        + (run.commands() - run.results().orders()));
        figures.put(
                "Worker RSS max",
                worker == null
                        ? Cells.NOT_AVAILABLE
                        : Cells.decimal(worker.rssMaxMiB(), 0) + " MiB (target < " + Math.round(RSS_TARGET_MIB) + ": "
                                + (worker.rssMaxMiB() < RSS_TARGET_MIB ? "met" : "missed") + ")");
        figures.put(
                "Worker JVM options",
                run.workerJvmOptions().isEmpty() ? "(none)" : String.join(" ", run.workerJvmOptions()));
        figures.put(
                "Invariants",
                invariants.holds()
                        ? "hold (" + invariants.completed() + " completed, " + invariants.rejected()
                                + " rejected, drift 0, no double payment, none open)"
                        : Cells.invariants(invariants));
        return Table.figures(
                "Drain",
                figures,
                "From the worker's start includes its JVM and Spring start-up; while deciding is the span between the"
                        + " first and the last result record the workers published.");
    }

    /** A row per batch size: the ceilings before and after the drain are one run per batch size each, in order. */
    Table againstCeiling() {
        var run = drain();
        var before = run.ceilingBefore();
        var after = run.ceilingAfter();
        return Table.of(
                "Drain against the ceiling",
                List.<Column<Integer>>of(
                        Column.of(
                                "Ceiling k", i -> Integer.toString(before.get(i).batchSize())),
                        Column.of(
                                "Ceiling before, commands/s",
                                i -> Cells.decimal(before.get(i).perSecond(), 0)),
                        Column.of(
                                "Ceiling after, commands/s",
                                i -> Cells.decimal(after.get(i).perSecond(), 0)),
                        Column.of(
                                "Drain from start / ceiling (before / after)",
                                i -> ratios(run.perSecondFromStart(), before.get(i), after.get(i))),
                        Column.of(
                                "Drain while deciding / ceiling (before / after)",
                                i -> ratios(run.perSecondDeciding(), before.get(i), after.get(i)))),
                IntStream.range(0, before.size()).boxed().toList(),
                "The ceiling is one JDBC writer doing the same per-command work in batches of k, no Kafka, same"
                        + " database and durability; the worker polls up to its max-poll-records per transaction.");
    }

    private static String ratios(double drainPerSecond, CeilingRun before, CeilingRun after) {
        return ratio(drainPerSecond, before.perSecond()) + " / " + ratio(drainPerSecond, after.perSecond());
    }

    private static String ratio(double value, double reference) {
        return reference > 0 ? String.format(Locale.ROOT, "%.2f", value / reference) : Cells.NOT_AVAILABLE;
    }

    /** The group's lag over the drain. */
    private static Chart lagCurve(DrainRun run) {
        var points = run.curve().stream()
                .map(point -> new Chart.Point(point.seconds(), point.lag()))
                .toList();
        // the worker's JVM and Spring start-up are part of the time to drain: the marker shows how much
        return new Chart.Lines(
                        "drain-lag",
                        "Consumer group lag during the drain",
                        "seconds since the worker's start",
                        "commands",
                        Map.of("lag", points))
                .withEvents(List.of(new Chart.Event(run.startToReadySeconds(), "worker ready")));
    }

    /** The lag curve; the rates against the ceiling are the tables'. */
    @Override
    public List<Chart> charts() {
        return run == null ? List.of() : List.of(lagCurve(run));
    }
}
