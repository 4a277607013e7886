package dev.orderpipeline.lab.soak;

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
import java.util.Map;

/** What a soak found: per strategy and rate the sustained figures, where each strategy saturates, and time series. */
public record SoakReport(ReportHeader header, SoakSettings settings, List<SoakRun> runs, List<String> skipped)
        implements LabReport {

    public SoakReport {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "Open-model load on one hot product: checkouts start on a schedule at the target rate for %d s,"
                        + " whatever the answers do, at most %d in flight (arrivals beyond are dropped and counted);"
                        + " latency counts from each request's scheduled start, so queueing shows.",
                settings.duration().toSeconds(),
                settings.maxInFlight());
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<Table>();
        tables.add(new Table(
                "Sustained load",
                List.of(
                        "Run",
                        "Target/s",
                        "Achieved/s",
                        "Sent",
                        "2xx",
                        "Errors",
                        "Dropped",
                        "p50",
                        "p95",
                        "p99",
                        "max",
                        "to final p99",
                        "Saturated"),
                runs.stream()
                        .map(run -> List.of(
                                run.label(),
                                Integer.toString(run.targetRate()),
                                Cells.decimal(run.achievedRate(), 1),
                                Long.toString(run.started()),
                                Long.toString(run.succeeded()),
                                Long.toString(run.errors()),
                                Long.toString(run.dropped()),
                                Cells.duration(run.latency(), Latency::p50Ms),
                                Cells.duration(run.latency(), Latency::p95Ms),
                                Cells.duration(run.latency(), Latency::p99Ms),
                                Cells.duration(run.latency(), Latency::maxMs),
                                Cells.duration(run.finalLatency(), Latency::p99Ms),
                                run.saturated() ? "yes: " + String.join("; ", run.saturationReasons()) : "no"))
                        .toList(),
                "Latency from the scheduled start to the answer. Saturated: achieved below "
                        + Math.round(SoakExperiment.KEEPING_UP * 100) + "% of the target, p99 over "
                        + settings.p99Limit().toMillis() + " ms, or arrivals dropped."));
        tables.add(new Table(
                "Where each strategy saturates",
                List.of("Strategy", "Saturates at", "Highest rate kept up"),
                saturation(),
                ""));
        if (!skipped.isEmpty()) {
            tables.add(new Table(
                    "Not run",
                    List.of("Strategy", "Reason"),
                    skipped.stream()
                            .map(strategy -> List.of(strategy, "order-api does not know it (400 unknown-strategy)"))
                            .toList(),
                    ""));
        }
        return tables;
    }

    /** Per strategy, in run order: the first rate it did not keep up with, and the highest it did. */
    List<List<String>> saturation() {
        var byStrategy = new LinkedHashMap<String, List<SoakRun>>();
        runs.forEach(run -> byStrategy
                .computeIfAbsent(run.strategy(), key -> new ArrayList<>())
                .add(run));
        var rows = new ArrayList<List<String>>();
        byStrategy.forEach((strategy, strategyRuns) -> {
            var first = strategyRuns.stream()
                    .filter(SoakRun::saturated)
                    .mapToInt(SoakRun::targetRate)
                    .min();
            var kept = strategyRuns.stream()
                    .filter(run -> !run.saturated())
                    .mapToInt(SoakRun::targetRate)
                    .max();
            var highest =
                    strategyRuns.stream().mapToInt(SoakRun::targetRate).max().orElse(0);
            rows.add(List.of(
                    strategy,
                    first.isPresent() ? first.getAsInt() + "/s" : "not up to " + highest + "/s",
                    kept.isPresent() ? kept.getAsInt() + "/s" : "none tested"));
        });
        return rows;
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<Chart>();
        if (runs.isEmpty()) {
            return charts;
        }
        var throughput = new LinkedHashMap<String, List<Chart.Point>>();
        var p99 = new LinkedHashMap<String, List<Chart.Point>>();
        var p50 = new LinkedHashMap<String, List<Chart.Point>>();
        for (var run : runs) {
            var done = new ArrayList<Chart.Point>();
            var tail = new ArrayList<Chart.Point>();
            var median = new ArrayList<Chart.Point>();
            for (var second : run.timeline()) {
                done.add(new Chart.Point(second.second(), second.succeeded()));
                if (second.succeeded() + second.errors() > 0) {
                    tail.add(new Chart.Point(second.second(), second.p99Ms()));
                    median.add(new Chart.Point(second.second(), second.p50Ms()));
                }
            }
            throughput.put(run.label(), done);
            p99.put(run.label() + " p99", tail);
            p50.put(run.label() + " p50", median);
        }
        charts.add(new Chart.Lines(
                "throughput-over-time", "Successful checkouts per second", "second", "answers/s", throughput));
        var latency = new LinkedHashMap<String, List<Chart.Point>>(p99);
        latency.putAll(p50);
        charts.add(new Chart.Lines(
                "latency-over-time", "Latency per second (from the scheduled start)", "second", "ms", latency));
        var percentiles = new LinkedHashMap<String, Map<String, Number>>();
        for (var run : runs) {
            percentiles
                    .computeIfAbsent("p50", key -> new LinkedHashMap<>())
                    .put(run.label(), run.latency().p50Ms());
            percentiles
                    .computeIfAbsent("p95", key -> new LinkedHashMap<>())
                    .put(run.label(), run.latency().p95Ms());
            percentiles
                    .computeIfAbsent("p99", key -> new LinkedHashMap<>())
                    .put(run.label(), run.latency().p99Ms());
            percentiles
                    .computeIfAbsent("max", key -> new LinkedHashMap<>())
                    .put(run.label(), run.latency().maxMs());
        }
        charts.add(new Chart.Bars("latency", "Checkout latency per run", "ms", false, percentiles));
        return charts;
    }
}
