package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.measure.Latency;
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
import java.util.stream.Collectors;

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
                settings.keys().label(),
                settings.partitions(),
                settings.rate() == 0 ? "all at once" : "at " + settings.rate() + "/s",
                settings.eventAt() * 100,
                settings.interval().toMillis());
    }

    @Override
    public List<Table> tables() {
        var events = runs.stream()
                .flatMap(run -> run.events().stream().map(event -> List.of(run.label(), event)))
                .toList();
        return List.of(
                Table.of(
                        "Rebalances",
                        List.<Column<RebalanceRun>>of(
                                Column.of("Run", RebalanceRun::label),
                                Column.of("Group type", RebalanceRun::groupType),
                                Column.of("Event at", run -> Cells.decimal(run.eventAtSeconds(), 1) + " s"),
                                Column.of("Final owners at", RebalanceReport::finalOwnersAt),
                                Column.of(
                                        "Moved partitions",
                                        run -> run.moved().isEmpty()
                                                ? "none"
                                                : run.moved().toString()),
                                Column.of("Pause, moved", run -> Cells.seconds(run.longestPauseMovedMillis(), 2)),
                                Column.of("Pause, stayed", run -> Cells.seconds(run.longestPauseStayedMillis(), 2)),
                                Column.of(
                                        "Killed worker's partitions",
                                        run -> run.killed() == null
                                                ? "-"
                                                : run.killedPartitions().toString()),
                                Column.of("Pause, killed worker's partitions", RebalanceReport::pauseKilled),
                                Column.of("Gap before", run -> Cells.seconds(run.longestGapBeforeMillis(), 2)),
                                Column.of("End-to-end p50", run -> Cells.duration(run.endToEnd(), Latency::p50Ms)),
                                Column.of("End-to-end p99", run -> Cells.duration(run.endToEnd(), Latency::p99Ms)),
                                Column.of("End-to-end max", run -> Cells.duration(run.endToEnd(), Latency::maxMs)),
                                Column.of("Results", run -> Long.toString(run.results())),
                                Column.of("Duplicates (results)", run -> Long.toString(run.duplicates())),
                                Column.of(
                                        "Duplicates (worker counters)", run -> Long.toString(run.duplicatesCounted())),
                                Column.of("Orders without a result", run -> Long.toString(run.ordersWithoutResult())),
                                Column.of("Commands/s", run -> Cells.decimal(run.perSecond(), 0)),
                                Column.of("Invariants", run -> Cells.invariants(run.invariants()))),
                        runs,
                        NOTE),
                new Table("What happened", List.of("Run", "Event"), events, ""));
    }

    private static final String NOTE = "Group type as the broker reports it. Killed worker's partitions: the ones it"
            + " owned before the kill; a worker restarted under its name (restart) takes them back, so they do not show"
            + " as moved and their pause is read there. Gap before: the longest pause of any partition before the"
            + " event, the normal gap between commits. End-to-end: command record to result record. Duplicates"
            + " (results): results flagged duplicate on checkout.results; worker counters:"
            + " checkout.commands{outcome=duplicate} of the workers still alive at the end (a killed worker's count is"
            + " lost with it). Orders without a result: decided in the database, but no result reached"
            + " checkout.results (the worker publishes results without waiting for them; a killed one loses those in"
            + " flight); the client reads the order.";

    private static String finalOwnersAt(RebalanceRun run) {
        var seconds = run.reassignedAtSeconds();
        return seconds == null ? Cells.NOT_AVAILABLE : Cells.decimal(seconds, 1) + " s";
    }

    private static String pauseKilled(RebalanceRun run) {
        var millis = run.longestPauseKilledMillis();
        return millis == null ? "-" : Cells.seconds(millis, 2);
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<Chart>();
        if (!runs.isEmpty()) {
            // a panel per scenario, a line per protocol, the event where it happened in each
            charts.add(panels("rebalance-lag", "Lag during the run", "commands", LagTimeline.Point::lag));
            charts.add(panels(
                    "rebalance-rate", "Commands committed per second", "commands/s", LagTimeline.Point::perSecond));
            var pauses = new LinkedHashMap<String, Map<String, Number>>();
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

    private Chart panels(String file, String title, String yAxis, ToDoubleFunction<LagTimeline.Point> value) {
        var byScenario = runs.stream()
                .collect(Collectors.groupingBy(RebalanceRun::scenario, LinkedHashMap::new, Collectors.toList()));
        var panels = new ArrayList<Chart.Panel>();
        byScenario.forEach((scenario, scenarioRuns) -> {
            var lines = new LinkedHashMap<String, List<Chart.Point>>();
            var events = new ArrayList<Chart.Event>();
            for (var run : scenarioRuns) {
                lines.put(
                        run.protocol(),
                        run.curve().stream()
                                .map(point -> new Chart.Point(point.seconds(), value.applyAsDouble(point)))
                                .toList());
                events.addAll(events(run, scenarioRuns.size() > 1));
            }
            panels.add(new Chart.Panel(scenarioTitle(scenario), lines, distinct(events)));
        });
        return new Chart.Panels(
                file,
                title,
                "",
                "seconds since the first send",
                yAxis,
                Chart.Scale.LINEAR,
                Chart.Scale.LINEAR,
                true,
                panels.size(),
                panels);
    }

    /** The event that the scenario is about, and when the worker it started answered ready. */
    private static List<Chart.Event> events(RebalanceRun run, boolean perProtocol) {
        var events = new ArrayList<Chart.Event>();
        events.add(new Chart.Event(
                run.eventAtSeconds(),
                switch (run.scenario()) {
                    case "add" -> "worker added";
                    case "kill" -> "worker killed";
                    default -> "killed, restarted";
                }));
        if (run.newWorkerReadyAtSeconds() != null) {
            events.add(new Chart.Event(
                    run.newWorkerReadyAtSeconds(), "ready" + (perProtocol ? " (" + run.protocol() + ")" : "")));
        }
        return events;
    }

    /** The same label within a second is one event: both protocols' runs kill at about the same time. */
    private static List<Chart.Event> distinct(List<Chart.Event> events) {
        var kept = new ArrayList<Chart.Event>();
        for (var event : events) {
            if (kept.stream()
                    .noneMatch(other -> other.label().equals(event.label()) && Math.abs(other.at() - event.at()) < 1)) {
                kept.add(event);
            }
        }
        return kept;
    }

    private static String scenarioTitle(String scenario) {
        return switch (scenario) {
            case "add" -> "a worker added";
            case "kill" -> "a worker killed (kill -9)";
            case "restart" -> "killed, restarted under its name";
            default -> scenario;
        };
    }
}
