package dev.orderpipeline.lab.drain;

import dev.orderpipeline.lab.backlog.LagTimeline.Point;
import dev.orderpipeline.lab.ceiling.CeilingReport;
import dev.orderpipeline.lab.ceiling.CeilingRun;
import dev.orderpipeline.lab.measure.ResourceUsage;
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
import java.util.function.ToDoubleFunction;

/** What a drain found: the worker's rate against the ceiling, its memory and CPU, the drain curve, the invariants. */
public record DrainReport(ReportHeader header, DrainSettings settings, DrainRun run) implements LabReport {

    /** The worker's memory budget while draining, which checkout-worker/jvm.options is chosen to meet. */
    static final double RSS_TARGET_MIB = 300;

    @Override
    public String summary() {
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
        var tables = new ArrayList<Table>();
        tables.add(drainTable());
        if (!run.ceilingBefore().isEmpty()) {
            tables.add(againstCeiling());
            tables.add(CeilingReport.table(run.ceilingBefore(), 1).titled("Ceiling before the drain"));
            tables.add(CeilingReport.table(run.ceilingAfter(), 1).titled("Ceiling after the drain"));
        }
        if (run.steps().polls() > 0) {
            tables.add(stepsTable());
        }
        tables.add(processTable(run.resources()));
        tables.add(databaseTable());
        return tables;
    }

    Table drainTable() {
        var worker = usage(run.resources(), "checkout-worker");
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
                "Worker CPU avg / max",
                worker == null
                        ? Cells.NOT_AVAILABLE
                        : Cells.decimal(worker.cpuAvgPercent(), 0) + "% / " + Cells.decimal(worker.cpuMaxPercent(), 0)
                                + "% of a core");
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

    Table againstCeiling() {
        var after = run.ceilingAfter();
        var rows = new ArrayList<Ceilings>();
        for (var i = 0; i < run.ceilingBefore().size(); i++) {
            rows.add(new Ceilings(
                    run.ceilingBefore().get(i), i < after.size() ? after.get(i).perSecond() : 0));
        }
        return Table.of(
                "Drain against the ceiling",
                List.<Column<Ceilings>>of(
                        Column.of(
                                "Ceiling k",
                                row -> Integer.toString(row.before().batchSize())),
                        Column.of(
                                "Ceiling before, commands/s",
                                row -> Cells.decimal(row.before().perSecond(), 0)),
                        Column.of("Ceiling after, commands/s", row -> Cells.decimal(row.afterPerSecond(), 0)),
                        Column.of(
                                "Drain from start / ceiling (before / after)",
                                row -> row.ratios(run.perSecondFromStart())),
                        Column.of(
                                "Drain while deciding / ceiling (before / after)",
                                row -> row.ratios(run.perSecondDeciding()))),
                rows,
                "The ceiling is one JDBC writer doing the same per-command work in batches of k, no Kafka, same"
                        + " database and durability; the worker polls up to its max-poll-records per transaction.");
    }

    /** One batch size's ceiling before the drain, and the rate the same one reached after it. */
    private record Ceilings(CeilingRun before, double afterPerSecond) {

        String ratios(double drainPerSecond) {
            return ratio(drainPerSecond, before.perSecond()) + " / " + ratio(drainPerSecond, afterPerSecond);
        }
    }

    Table stepsTable() {
        var steps = run.steps();
        var listener = steps.listenerSeconds();
        var rows = new ArrayList<>(steps.stepSeconds().entrySet());
        var accounted = rows.stream().mapToDouble(Map.Entry::getValue).sum();
        rows.add(Map.entry("(listener, all steps)", listener));
        rows.add(Map.entry("(outside the steps)", Math.max(0, listener - accounted)));
        return Table.of(
                "Where the worker's time went",
                List.<Column<Map.Entry<String, Double>>>of(
                        Column.of("Step", Map.Entry::getKey),
                        Column.of("Seconds", row -> Cells.decimal(row.getValue(), 1)),
                        Column.of(
                                "Share of the listener's time",
                                row -> listener > 0
                                        ? String.format(Locale.ROOT, "%.0f%%", row.getValue() * 100 / listener)
                                        : Cells.NOT_AVAILABLE),
                        Column.of(
                                "ms per poll",
                                row -> steps.polls() > 0
                                        ? Cells.decimal(row.getValue() * 1000 / steps.polls(), 2)
                                        : Cells.NOT_AVAILABLE)),
                rows,
                String.format(
                        Locale.ROOT,
                        "From the worker's own meters (checkout.batch.step, checkout.batch.listener) at the end of the"
                                + " drain: %d polls of %.0f records on average. Time between polls (fetching,"
                                + " committing offsets) is outside the listener.",
                        steps.polls(),
                        steps.polls() == 0 ? 0.0 : (double) steps.records() / steps.polls()));
    }

    static Table processTable(ResourceUsage resources) {
        var rows = new ArrayList<List<String>>(resources.processes().stream()
                .map(process -> List.of(
                        process.kind(),
                        Integer.toString(process.processes()),
                        Cells.decimal(process.cpuAvgPercent(), 1),
                        Cells.decimal(process.cpuMaxPercent(), 1),
                        Cells.decimal(process.rssMaxMiB(), 0)))
                .toList());
        var database = resources.database();
        rows.add(List.of(
                "postgresql",
                "-",
                Cells.decimal(database.cpuAvgPercent(), 1),
                Cells.decimal(database.cpuMaxPercent(), 1),
                Cells.NOT_AVAILABLE));
        return new Table(
                "CPU and memory per kind of process",
                List.of("Process", "Count", "CPU avg %", "CPU max %", "RSS max MiB"),
                rows,
                "CPU in percent of one core (200 = both cores of a 2-core machine), sampled from /proc every 500 ms"
                        + " over the drain; lab is the lab's own JVM (sampling, admin client).");
    }

    Table databaseTable() {
        var server = run.server();
        var figures = new LinkedHashMap<String, String>();
        figures.put("Commits", server == null ? Cells.NOT_AVAILABLE : Long.toString(server.commits()));
        figures.put("WAL syncs", server == null ? Cells.NOT_AVAILABLE : Long.toString(server.walSyncs()));
        figures.put(
                "WAL written",
                server == null ? Cells.NOT_AVAILABLE : Cells.decimal(server.walBytes() / 1048576.0, 0) + " MiB");
        figures.put(
                "Commands per commit",
                server == null || server.commits() == 0
                        ? Cells.NOT_AVAILABLE
                        : Cells.decimal((double) run.commands() / server.commits(), 0));
        run.serverSettings().forEach((name, value) -> figures.put("server default " + name, value));
        return Table.figures(
                "PostgreSQL during the drain",
                figures,
                "Counted by pg_stat_database and pg_stat_wal, whole database; the apps' own sessions set"
                        + " synchronous_commit as the target's appArguments say.");
    }

    private static ResourceUsage.@org.jspecify.annotations.Nullable ProcessUsage usage(
            ResourceUsage resources, String kind) {
        return resources.processes().stream()
                .filter(process -> process.kind().equals(kind))
                .findFirst()
                .orElse(null);
    }

    private static String ratio(double value, double reference) {
        return reference > 0 ? String.format(Locale.ROOT, "%.2f", value / reference) : Cells.NOT_AVAILABLE;
    }

    /** One figure of the drain curve over time. */
    private Chart curve(String file, String title, String yAxis, String series, ToDoubleFunction<Point> value) {
        var points = run.curve().stream()
                .map(point -> new Chart.Point(point.seconds(), value.applyAsDouble(point)))
                .toList();
        // the worker's JVM and Spring start-up are part of the time to drain: the marker shows how much
        return new Chart.Lines(file, title, "seconds since the worker's start", yAxis, Map.of(series, points))
                .withEvents(List.of(new Chart.Event(run.startToReadySeconds(), "worker ready")));
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<Chart>();
        charts.add(curve("drain-lag", "Consumer group lag during the drain", "commands", "lag", Point::lag));
        charts.add(curve(
                "drain-rate",
                "Commands committed per second during the drain",
                "commands/s",
                "committed/s",
                Point::perSecond));
        if (!run.ceilingBefore().isEmpty()) {
            var bars = new LinkedHashMap<String, Map<String, Number>>();
            var values = new LinkedHashMap<String, Number>();
            for (var ceiling : run.ceilingBefore()) {
                values.put("ceiling k=" + ceiling.batchSize() + " before", ceiling.perSecond());
            }
            for (var ceiling : run.ceilingAfter()) {
                values.put("ceiling k=" + ceiling.batchSize() + " after", ceiling.perSecond());
            }
            values.put("worker from start", run.perSecondFromStart());
            values.put("worker while deciding", run.perSecondDeciding());
            bars.put("commands/s", values);
            charts.add(new Chart.Bars(
                    "drain-vs-ceiling",
                    "Worker drain rate against the ceiling",
                    "commands/s",
                    false,
                    bars,
                    Chart.Scale.AUTO));
        }
        return charts;
    }
}
