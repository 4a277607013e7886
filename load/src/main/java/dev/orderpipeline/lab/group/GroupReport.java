package dev.orderpipeline.lab.group;

import dev.orderpipeline.lab.compare.CheckoutCosts;
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
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The grid: throughput against workers per key distribution and partition count, where the time went and what a
 * checkout cost, and for the cells with an event, the pauses it caused.
 */
public record GroupReport(ReportHeader header, GroupSettings settings, List<GroupCell> cells) implements LabReport {

    public GroupReport {
        cells = List.copyOf(cells);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "Per cell (partitions x worker processes x key distribution x event x group protocol) %d checkouts"
                        + " sent %s to a group whose members had all joined, drained until the group's lag was zero."
                        + " Events, when %.0f%% of them are committed: add, a worker joins; kill, one is killed with"
                        + " SIGKILL; restart, one is killed and started again at once under its name. Throughput counts"
                        + " from the first send; end-to-end latency runs from a command's record timestamp to its"
                        + " result's, so in a backlog it is mostly time spent queued. A pause is the longest time a"
                        + " partition had records waiting and its committed offset did not move (offsets read every"
                        + " %d ms).",
                settings.commands(),
                settings.rate() == 0 ? "as fast as one producer can" : "at " + settings.rate() + "/s",
                GroupSettings.EVENT_AT * 100,
                settings.lagInterval().toMillis());
    }

    /** Every cell's orders keep their invariants, whatever its event did to the group. */
    @Override
    public boolean holds() {
        return cells.stream().allMatch(cell -> cell.invariants().holds());
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<>(List.of(throughputTable(), cellTable()));
        var disrupted = disrupted();
        if (!disrupted.isEmpty()) {
            tables.add(rebalanceTable(disrupted));
        }
        tables.addAll(CheckoutCosts.table("Cell", cells, GroupCell::label, GroupCell::cost));
        return tables;
    }

    /** The cells with an event, in run order. */
    private List<GroupCell> disrupted() {
        return cells.stream().filter(cell -> cell.disruption() != null).toList();
    }

    private static Disruption disruption(GroupCell cell) {
        return Objects.requireNonNull(cell.disruption());
    }

    /** Commands/s: a row per distribution, partition count, event and protocol, a column per worker count. */
    Table throughputTable() {
        var columns = new ArrayList<>(List.of("Keys", "Partitions", "Event", "Protocol"));
        settings.workerCounts().forEach(workers -> columns.add(workers + " worker" + (workers == 1 ? "" : "s")));
        var rows = new ArrayList<List<String>>();
        for (var keys : settings.keys()) {
            for (var partitions : settings.partitionCounts()) {
                for (var event : settings.events()) {
                    for (var protocol : settings.protocols()) {
                        var row = new ArrayList<>(List.of(keys.label(), Integer.toString(partitions), event, protocol));
                        for (var workers : settings.workerCounts()) {
                            row.add(cell(partitions, workers, keys.label(), event, protocol)
                                    .map(cell -> Cells.decimal(cell.perSecond(), 0))
                                    .orElse("-"));
                        }
                        rows.add(row);
                    }
                }
            }
        }
        return new Table(
                "Throughput, commands/s",
                columns,
                rows,
                "Each worker process runs one consumer thread; the processes share the machine's cores with"
                        + " PostgreSQL, the broker, order-api and the lab. With a --rate, throughput is at most the"
                        + " rate.");
    }

    Table cellTable() {
        return Table.of(
                "Cells",
                List.<Column<GroupCell>>of(
                        Column.of("Cell", GroupCell::label),
                        Column.of("End-to-end p50", cell -> Cells.duration(cell.endToEnd(), Latency::p50Ms)),
                        Column.of("End-to-end p99", cell -> Cells.duration(cell.endToEnd(), Latency::p99Ms)),
                        Column.of("End-to-end max", cell -> Cells.duration(cell.endToEnd(), Latency::maxMs)),
                        Column.of("Busiest partition", cell -> percent(cell.busiestPartitionShare())),
                        Column.of("Duplicates (results)", cell -> Long.toString(cell.duplicates())),
                        Column.of("Duplicates (worker counters)", cell -> Cells.integer(cell.duplicatesCounted())),
                        Column.of("Invariants", cell -> Cells.invariants(cell.invariants()))),
                cells,
                "Busiest partition: its share of the cell's commands."
                        + " Duplicates (results): results flagged duplicate on checkout.results; worker counters:"
                        + " checkout.commands{outcome=duplicate} of the workers alive at the end (a killed worker's"
                        + " count is lost with it). n/a: not recorded.");
    }

    Table rebalanceTable(List<GroupCell> disrupted) {
        return Table.of(
                "Rebalances",
                List.of(
                        Column.of("Cell", GroupCell::label),
                        Column.of("Group type", cell -> Objects.requireNonNullElse(cell.groupType(), "n/a")),
                        event("Event at", event -> at(event.atSeconds())),
                        event("Ready at", event -> at(event.readyAtSeconds())),
                        event(
                                "Moved partitions",
                                event -> event.moved().isEmpty()
                                        ? "none"
                                        : event.moved().toString()),
                        event("Pause, moved", event -> Cells.seconds(event.longestMovedMillis(), 2)),
                        event("Pause, stayed", event -> Cells.seconds(event.longestStayedMillis(), 2)),
                        event(
                                "Pause, killed worker's partitions",
                                event -> event.longestKilledMillis() == null
                                        ? "-"
                                        : Cells.seconds(event.longestKilledMillis(), 2)),
                        event("Gap before", event -> Cells.seconds(event.gapBeforeMillis(), 2))),
                disrupted,
                "Group type as the broker reports it. Ready at: when the worker the event started (add, restart)"
                        + " answered ready. Killed worker's partitions: the ones it owned before the kill; a worker"
                        + " restarted under its name takes them back, so they do not show as moved and their pause is"
                        + " read there. Gap before: the longest pause of any partition before the event, the normal"
                        + " gap between commits.");
    }

    private static Column<GroupCell> event(String heading, Function<Disruption, String> figure) {
        return Column.of(heading, cell -> figure.apply(disruption(cell)));
    }

    private static String at(@Nullable Double seconds) {
        return seconds == null ? Cells.NOT_AVAILABLE : Cells.decimal(seconds, 1) + " s";
    }

    private static String percent(@Nullable Double share) {
        return share == null ? Cells.NOT_AVAILABLE : String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    private Optional<GroupCell> cell(int partitions, int workers, String keys, String event, String protocol) {
        return cells.stream()
                .filter(cell -> cell.partitions() == partitions
                        && cell.workers() == workers
                        && cell.keys().equals(keys)
                        && cell.event().equals(event)
                        && cell.protocol().equals(protocol))
                .findFirst();
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<Chart>();
        var protocol = settings.protocols().getFirst();
        if (settings.events().contains(GroupSettings.NONE)) {
            for (var keys : settings.keys()) {
                throughputChart(keys.label(), protocol).ifPresent(charts::add);
            }
        }
        var disrupted = disrupted();
        if (!disrupted.isEmpty()) {
            charts.add(lagPanels(disrupted));
        }
        charts.addAll(CheckoutCosts.chart(cells, GroupCell::label, GroupCell::cost));
        return charts;
    }

    /** Throughput against worker processes for one distribution, a line per partition count; none if no cell ran. */
    private Optional<Chart> throughputChart(String keys, String protocol) {
        var series = new LinkedHashMap<String, List<Chart.Point>>();
        for (var partitions : settings.partitionCounts()) {
            var points = new ArrayList<Chart.Point>();
            for (var workers : settings.workerCounts()) {
                cell(partitions, workers, keys, GroupSettings.NONE, protocol)
                        .ifPresent(cell -> points.add(new Chart.Point(workers, cell.perSecond())));
            }
            if (!points.isEmpty()) {
                series.put(partitions + " partition" + (partitions == 1 ? "" : "s"), points);
            }
        }
        return series.isEmpty()
                ? Optional.empty()
                : Optional.of(new Chart.Lines(
                        "throughput-" + keys.replaceAll("[^A-Za-z0-9]+", "-"),
                        "Throughput against worker processes: " + keys + " (" + protocol + ")",
                        "worker processes",
                        "commands/s",
                        series));
    }

    /**
     * The group's lag in the cells with an event: a panel per event, a line per protocol (per cell when the cells
     * differ in more), the event where it happened and when the worker it started answered ready.
     */
    private Chart lagPanels(List<GroupCell> disrupted) {
        var sameSetup = disrupted.stream().map(GroupCell::setup).distinct().count() == 1;
        Function<GroupCell, String> line = cell -> sameSetup ? cell.protocol() : cell.setup() + " / " + cell.protocol();
        var panels = new ArrayList<Chart.Panel>();
        for (var event : settings.events()) {
            var lines = new LinkedHashMap<String, List<Chart.Point>>();
            var events = new ArrayList<Chart.Event>();
            for (var cell : disrupted) {
                if (!cell.event().equals(event)) {
                    continue;
                }
                lines.put(
                        line.apply(cell),
                        cell.curve().stream()
                                .map(point -> new Chart.Point(point.seconds(), point.lag()))
                                .toList());
                addDistinct(events, new Chart.Event(disruption(cell).atSeconds(), eventLabel(event)));
                var ready = disruption(cell).readyAtSeconds();
                if (ready != null) {
                    addDistinct(events, new Chart.Event(ready, "ready (" + line.apply(cell) + ")"));
                }
            }
            if (!lines.isEmpty()) {
                panels.add(new Chart.Panel(eventLabel(event), lines, events));
            }
        }
        return new Chart.Panels(
                "rebalance-lag", "Lag during the cell", "seconds since the first send", "commands", panels);
    }

    /** The same label within a second is one event: both protocols' cells kill at about the same time. */
    private static void addDistinct(List<Chart.Event> events, Chart.Event event) {
        if (events.stream()
                .noneMatch(other -> other.label().equals(event.label()) && Math.abs(other.at() - event.at()) < 1)) {
            events.add(event);
        }
    }

    /** The panel's title and its event's marker. */
    private static String eventLabel(String event) {
        return switch (event) {
            case GroupSettings.ADD -> "worker added";
            case GroupSettings.KILL -> "worker killed (kill -9)";
            default -> "killed, restarted under its name";
        };
    }
}
