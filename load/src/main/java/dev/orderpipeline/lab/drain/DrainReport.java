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
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a drain found: the worker's rate against the ceiling, its memory, the invariants; with
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

    @Override
    public String summary() {
        if (run == null) {
            return "The ceiling alone: the worker's per-command work (idempotency row, conditional decrement of the"
                    + " hot product's stock, order status, payment) applied straight through JDBC by one writer, k"
                    + " commands per transaction with four set-based statements, no Kafka, every commit durable. Orders"
                    + " were inserted before (set-based) and are not timed. This is the bar the worker is measured"
                    + " against.";
        }
        return String.format(
                Locale.ROOT,
                "%d checkouts (%s) pre-filled on the command topic with no worker running, then %d worker process(es)"
                        + " started and timed from the process start until the consumer group's lag was zero (offsets"
                        + " read with the admin client). The ceiling %s.",
                run.commands(),
                settings.keys().label(),
                settings.workers(),
                run.ceilingBefore().isEmpty()
                        ? "was not measured"
                        : "was measured on the same database just before and just after, with no worker running");
    }

    /** The drain's orders and every hot-row probe's keep their invariants. */
    @Override
    public boolean holds() {
        return (run == null || run.invariants().holds())
                && ceiling.stream().allMatch(probe -> probe.invariants().holds());
    }

    @Override
    public List<Table> tables() {
        if (run == null) {
            return List.of(ceilingTable(ceiling, null));
        }
        var tables = new ArrayList<Table>();
        tables.add(drainTable());
        if (!run.ceilingBefore().isEmpty()) {
            tables.add(ceilingTable(run.ceilingBefore(), run).titled("Ceiling before the drain"));
            tables.add(ceilingTable(run.ceilingAfter(), run).titled("Ceiling after the drain"));
        }
        return tables;
    }

    /** The ceiling per batch size, and with a drain, the drain's rates against it. */
    static Table ceilingTable(List<CeilingRun> runs, @Nullable DrainRun drain) {
        var columns = new ArrayList<>(List.<Column<CeilingRun>>of(
                Column.of("k", run -> Integer.toString(run.batchSize())),
                Column.of("Commands", run -> Long.toString(run.commands())),
                Column.of("Commands/s", run -> Cells.decimal(run.perSecond(), 0)),
                Column.of("Batch p50", run -> Cells.duration(run.batchLatency(), Latency::p50Ms)),
                Column.of("WAL syncs/tx", DrainReport::walSyncsPerTransaction),
                Column.of("Invariants", run -> Cells.invariants(run.invariants()))));
        var note =
                "Timed after a warm-up of a few transactions. Batch: one transaction, first statement to end of commit."
                        + " WAL syncs per transaction (pg_stat_wal): about 1 when every commit waits for its own flush.";
        if (drain != null) {
            columns.add(Column.of("Drain from start / ceiling", run -> ratio(drain.perSecondFromStart(), run)));
            columns.add(Column.of("Drain while deciding / ceiling", run -> ratio(drain.perSecondDeciding(), run)));
            note += " The worker polls up to its max-poll-records per transaction.";
        }
        return Table.of("Ceiling: one writer, k commands per transaction", columns, runs, note);
    }

    private static String walSyncsPerTransaction(CeilingRun run) {
        var server = run.server();
        return server == null || run.batches() == 0
                ? Cells.NOT_AVAILABLE
                : Cells.decimal((double) server.walSyncs() / run.batches(), 2);
    }

    private static String ratio(double drainPerSecond, CeilingRun ceiling) {
        return ceiling.perSecond() > 0
                ? String.format(Locale.ROOT, "%.2f", drainPerSecond / ceiling.perSecond())
                : Cells.NOT_AVAILABLE;
    }

    Table drainTable() {
        var run = Objects.requireNonNull(this.run, "a drain's run");
        var worker = run.resources().process(StackTarget.WORKER).orElse(null);
        var figures = new LinkedHashMap<String, String>();
        figures.put("Commands", Long.toString(run.commands()));
        figures.put("Worker start to ready", Cells.decimal(run.startToReadySeconds(), 1) + " s");
        figures.put("Commands/s from the worker's start", Cells.decimal(run.perSecondFromStart(), 0));
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
        figures.put("Invariants", Cells.invariants(run.invariants()));
        return Table.figures(
                "Drain",
                figures,
                "From the worker's start includes its JVM and Spring start-up; while deciding is the span between the"
                        + " first and the last result record the workers published.");
    }

    @Override
    public List<Chart> charts() {
        return List.of();
    }
}
