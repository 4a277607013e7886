package dev.orderpipeline.lab.scale;

import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.measure.Latency;
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

/** The grid: throughput against workers per key distribution and partition count, and where the time went. */
public record ScaleReport(ReportHeader header, ScaleSettings settings, List<ScaleCell> cells) implements LabReport {

    public ScaleReport {
        cells = List.copyOf(cells);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "Per cell (partitions x worker processes x key distribution) a backlog of %d checkouts sent as fast as"
                        + " one producer can to a group whose members had all joined, drained until the group's lag"
                        + " was zero. Throughput counts from the first send; end-to-end latency runs from a command's"
                        + " record timestamp to its result's, so in a backlog it is mostly time spent queued.",
                settings.commands());
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<>(List.of(throughputTable(), cellTable()));
        tables.addAll(CheckoutCosts.table("Cell", cells, ScaleCell::label, ScaleCell::cost));
        return tables;
    }

    /** Commands/s: a row per distribution and partition count, a column per worker count. */
    Table throughputTable() {
        var columns = new ArrayList<String>(List.of("Keys", "Partitions"));
        settings.workerCounts().forEach(workers -> columns.add(workers + " worker" + (workers == 1 ? "" : "s")));
        var rows = new ArrayList<List<String>>();
        for (var keys : settings.keys()) {
            for (var partitions : settings.partitionCounts()) {
                var row = new ArrayList<String>(List.of(keys.label(), Integer.toString(partitions)));
                for (var workers : settings.workerCounts()) {
                    row.add(cell(partitions, workers, keys.label())
                            .map(cell -> Cells.decimal(cell.perSecond(), 0))
                            .orElse("-"));
                }
                rows.add(row);
            }
        }
        return new Table(
                "Throughput, commands/s",
                columns,
                rows,
                "Each worker process runs one consumer thread; the processes share the machine's cores with"
                        + " PostgreSQL, the broker, order-api and the lab.");
    }

    Table cellTable() {
        return Table.of(
                "Cells",
                List.<Column<ScaleCell>>of(
                        Column.of("Cell", ScaleCell::label),
                        Column.of("Commands/s", cell -> Cells.decimal(cell.perSecond(), 0)),
                        Column.of("Seconds", cell -> Cells.decimal(cell.seconds(), 1)),
                        Column.of("End-to-end p50", cell -> Cells.duration(cell.endToEnd(), Latency::p50Ms)),
                        Column.of("End-to-end p99", cell -> Cells.duration(cell.endToEnd(), Latency::p99Ms)),
                        Column.of(
                                "Busiest partition",
                                cell -> String.format(Locale.ROOT, "%.0f%%", cell.busiestPartitionShare() * 100)),
                        Column.of("Workers CPU %", cell -> cpu(cell.resources(), "checkout-worker")),
                        Column.of("Broker CPU %", cell -> cpu(cell.resources(), "kafka-broker")),
                        Column.of(
                                "PostgreSQL CPU %",
                                cell -> Cells.decimal(
                                        cell.resources().database().cpuAvgPercent(), 0)),
                        Column.of("Lab CPU %", cell -> cpu(cell.resources(), "lab")),
                        Column.of("Duplicates", cell -> Long.toString(cell.duplicates())),
                        Column.of("Invariants", cell -> Cells.invariants(cell.invariants()))),
                cells,
                "CPU: average over the cell in percent of one core, all processes of a kind together. Busiest"
                        + " partition: its share of the cell's commands.");
    }

    private static String cpu(ResourceUsage resources, String kind) {
        return resources.processes().stream()
                .filter(process -> process.kind().equals(kind))
                .findFirst()
                .map(process -> Cells.decimal(process.cpuAvgPercent(), 0))
                .orElse(Cells.NOT_AVAILABLE);
    }

    private java.util.Optional<ScaleCell> cell(int partitions, int workers, String keys) {
        return cells.stream()
                .filter(cell -> cell.partitions() == partitions
                        && cell.workers() == workers
                        && cell.keys().equals(keys))
                .findFirst();
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<Chart>();
        for (var keys : settings.keys()) {
            var series = new LinkedHashMap<String, List<Chart.Point>>();
            for (var partitions : settings.partitionCounts()) {
                var points = new ArrayList<Chart.Point>();
                for (var workers : settings.workerCounts()) {
                    cell(partitions, workers, keys.label())
                            .ifPresent(cell -> points.add(new Chart.Point(workers, cell.perSecond())));
                }
                if (!points.isEmpty()) {
                    series.put(partitions + " partition" + (partitions == 1 ? "" : "s"), points);
                }
            }
            if (!series.isEmpty()) {
                charts.add(new Chart.Lines(
                        "throughput-" + fileName(keys.label()),
                        "Throughput against worker processes: " + keys.label(),
                        "worker processes",
                        "commands/s",
                        series));
            }
        }
        // lag per partition for the widest cell of each distribution: where the backlog waited
        var partitions = settings.partitionCounts().getLast();
        var workers = settings.workerCounts().getLast();
        for (var keys : settings.keys()) {
            cell(partitions, workers, keys.label()).ifPresent(cell -> charts.add(lagChart(cell)));
        }
        charts.addAll(CheckoutCosts.chart(cells, ScaleCell::label, ScaleCell::cost));
        return charts;
    }

    static Chart lagChart(ScaleCell cell) {
        var series = new LinkedHashMap<String, List<Chart.Point>>();
        for (var partition = 0; partition < cell.partitions(); partition++) {
            var points = new ArrayList<Chart.Point>();
            for (var point : cell.lag()) {
                if (partition < point.lagByPartition().size()) {
                    points.add(new Chart.Point(
                            point.seconds(), point.lagByPartition().get(partition)));
                }
            }
            series.put("partition " + partition, points);
        }
        return new Chart.Lines(
                "lag-p" + cell.partitions() + "-w" + cell.workers() + "-" + fileName(cell.keys()),
                "Lag per partition: " + cell.label(),
                "seconds since the first send",
                "commands waiting",
                series);
    }

    private static String fileName(String keys) {
        return keys.replaceAll("[^A-Za-z0-9]+", "-");
    }
}
