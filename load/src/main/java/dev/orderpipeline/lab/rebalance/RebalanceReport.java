package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

/** Pauses, duplicates and invariants of each rebalance scenario under each group protocol. */
public record RebalanceReport(ReportHeader header, RebalanceSettings settings, List<RebalanceRun> runs)
        implements LabReport {

    public RebalanceReport {
        runs = List.copyOf(runs);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "%d checkouts (%s, %d partitions) sent %s while the workers consume: add, one worker consumes and a"
                        + " second is started when %.0f%% of them are committed; kill, two consume and one is killed"
                        + " with SIGKILL at that point; restart, two consume and one is killed and started again at"
                        + " once under its name. Committed offsets and owners are read every %d ms; a pause is"
                        + " the longest time a partition had records waiting and its committed offset did not move.",
                settings.commands(),
                settings.keys(),
                settings.partitions(),
                settings.rate() == 0 ? "all at once" : "at " + settings.rate() + "/s",
                settings.eventAt() * 100,
                settings.interval().toMillis());
    }

    @Override
    public List<Table> tables() {
        var rows = runs.stream()
                .map(run -> List.of(
                        run.label(),
                        run.groupType(),
                        Cells.decimal(run.eventAtSeconds(), 1) + " s",
                        run.reassignedAtSeconds() == null
                                ? Cells.NOT_AVAILABLE
                                : Cells.decimal(run.reassignedAtSeconds(), 1) + " s",
                        run.moved().isEmpty() ? "none" : run.moved().toString(),
                        Cells.decimal(run.longestPauseMovedMillis() / 1000.0, 2) + " s",
                        Cells.decimal(run.longestPauseStayedMillis() / 1000.0, 2) + " s",
                        run.killed() == null ? "-" : run.killedPartitions().toString(),
                        run.longestPauseKilledMillis() == null
                                ? "-"
                                : Cells.decimal(run.longestPauseKilledMillis() / 1000.0, 2) + " s",
                        Cells.decimal(run.longestGapBeforeMillis() / 1000.0, 2) + " s",
                        Cells.duration(run.endToEnd(), Latency::p50Ms),
                        Cells.duration(run.endToEnd(), Latency::p99Ms),
                        Cells.duration(run.endToEnd(), Latency::maxMs),
                        Long.toString(run.results()),
                        Long.toString(run.duplicates()),
                        Long.toString(run.duplicatesCounted()),
                        Long.toString(run.ordersWithoutResult()),
                        Cells.decimal(run.perSecond(), 0),
                        run.invariants().holds()
                                ? "hold"
                                : String.join("; ", run.invariants().violations())))
                .toList();
        var tables = new ArrayList<Table>();
        tables.add(
                new Table(
                        "Rebalances",
                        List.of(
                                "Run",
                                "Group type",
                                "Event at",
                                "Final owners at",
                                "Moved partitions",
                                "Pause, moved",
                                "Pause, stayed",
                                "Killed worker's partitions",
                                "Pause, killed worker's partitions",
                                "Gap before",
                                "End-to-end p50",
                                "End-to-end p99",
                                "End-to-end max",
                                "Results",
                                "Duplicates (results)",
                                "Duplicates (worker counters)",
                                "Orders without a result",
                                "Commands/s",
                                "Invariants"),
                        rows,
                        "Group type as the broker reports it. Killed worker's partitions: the ones it owned before the"
                                + " kill; a worker restarted under its name (restart) takes them back, so they do not show"
                                + " as moved and their pause is read there. Gap before: the longest pause of any partition before the event,"
                                + " the normal gap between commits. End-to-end: command record to result record. Duplicates (results): results flagged duplicate on"
                                + " checkout.results; worker counters: checkout.commands{outcome=duplicate} of the workers still"
                                + " alive at the end (a killed worker's count is lost with it). Orders without a result: decided"
                                + " in the database, but no result reached checkout.results (the worker publishes results"
                                + " without waiting for them; a killed one loses those in flight); the client reads the order."));
        var events = new ArrayList<List<String>>();
        for (var run : runs) {
            for (var event : run.events()) {
                events.add(List.of(run.label(), event));
            }
        }
        tables.add(new Table("What happened", List.of("Run", "Event"), events, ""));
        return tables;
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<Chart>();
        var lag = new LinkedHashMap<String, List<Chart.Point>>();
        var rate = new LinkedHashMap<String, List<Chart.Point>>();
        for (var run : runs) {
            var lagPoints = new ArrayList<Chart.Point>();
            var ratePoints = new ArrayList<Chart.Point>();
            for (var point : run.curve()) {
                lagPoints.add(new Chart.Point(point.seconds(), point.lag()));
                ratePoints.add(new Chart.Point(point.seconds(), point.perSecond()));
            }
            lag.put(run.label(), lagPoints);
            rate.put(run.label(), ratePoints);
        }
        if (!runs.isEmpty()) {
            charts.add(new Chart.Lines(
                    "rebalance-lag", "Lag during the run", "seconds since the first send", "commands", lag));
            charts.add(new Chart.Lines(
                    "rebalance-rate",
                    "Commands committed per second",
                    "seconds since the first send",
                    "commands/s",
                    rate));
            var pauses = new LinkedHashMap<String, java.util.Map<String, Number>>();
            for (var run : runs) {
                pauses.computeIfAbsent("moved partitions", key -> new LinkedHashMap<>())
                        .put(run.label(), run.longestPauseMovedMillis() / 1000.0);
                pauses.computeIfAbsent("partitions that stayed", key -> new LinkedHashMap<>())
                        .put(run.label(), run.longestPauseStayedMillis() / 1000.0);
                if (run.longestPauseKilledMillis() != null) {
                    pauses.computeIfAbsent("killed worker's partitions", key -> new LinkedHashMap<>())
                            .put(run.label(), run.longestPauseKilledMillis() / 1000.0);
                }
            }
            charts.add(new Chart.Bars("rebalance-pause", "Longest pause after the event", "seconds", false, pauses));
        }
        return charts;
    }
}
