package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** What a compare found, per strategy run: the article's tables, and the charts beside them. */
public record CompareReport(
        ReportHeader header, CompareSettings settings, List<StrategyRun> runs, List<SkippedStrategy> skipped)
        implements LabReport {

    public CompareReport {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "Each run: a fresh product with %d units, %d buyers with an order of %d unit%s each, all checkouts"
                        + " released at once over %s API replica(s); the invariants are read from the database"
                        + " once every order is final.",
                settings.initialStock(),
                settings.parallel(),
                settings.quantity(),
                settings.quantity() == 1 ? "" : "s",
                header.target().getOrDefault("apiReplicas", "?"));
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<Table>();
        tables.add(invariantTable());
        tables.add(loadTable());
        tables.add(latencyTable());
        tables.add(processTable());
        tables.add(databaseTable());
        if (!skipped.isEmpty()) {
            tables.add(new Table(
                    "Not run",
                    List.of("Strategy", "Reason"),
                    skipped.stream()
                            .map(skip -> List.of(skip.strategy(), skip.reason()))
                            .toList(),
                    ""));
        }
        return tables;
    }

    Table invariantTable() {
        var rows = runs.stream()
                .map(run -> {
                    var invariants = run.invariants();
                    return List.of(
                            run.label(),
                            Cells.yesNo(invariants.oversell()),
                            Long.toString(invariants.completed()),
                            Long.toString(invariants.rejected()),
                            Integer.toString(invariants.stockLeft()),
                            Long.toString(invariants.drift()),
                            Long.toString(invariants.doublePayments()),
                            Long.toString(invariants.notFinal()),
                            invariants.holds() ? "holds" : String.join("; ", invariants.violations()));
                })
                .toList();
        return new Table(
                "Invariants (read from the database)",
                List.of(
                        "Strategy",
                        "Oversell?",
                        "Completed",
                        "Rejected",
                        "Stock left",
                        "Drift",
                        "Double payments",
                        "Not final",
                        "Verdict"),
                rows,
                "Drift = stock left + units sold - initial stock: positive when decrements were lost (lost update),"
                        + " whatever the HTTP answers said.");
    }

    Table loadTable() {
        var rows = runs.stream()
                .map(run -> List.of(
                        run.label(),
                        Cells.decimal(run.elapsedSeconds(), 2),
                        Cells.decimal(run.decidedPerSecond(), 1),
                        Cells.counts(run.httpStatuses()),
                        run.resultsMissing() == null ? "-" : Long.toString(run.resultsMissing())))
                .toList();
        return new Table(
                "Load",
                List.of("Strategy", "Elapsed, s", "Decided/s", "HTTP statuses", "Results missing"),
                rows,
                "Elapsed: from the release of the checkouts to the last order becoming final.");
    }

    Table latencyTable() {
        var rows = runs.stream()
                .map(run -> {
                    var row = new ArrayList<String>();
                    row.add(run.label());
                    percentiles(run.checkoutLatency(), row);
                    percentiles(run.finalLatency(), row);
                    return (List<String>) row;
                })
                .toList();
        return new Table(
                "Checkout latency",
                List.of(
                        "Strategy",
                        "p50",
                        "p95",
                        "p99",
                        "max",
                        "to final p50",
                        "to final p95",
                        "to final p99",
                        "to final max"),
                rows,
                "The first four: time to the HTTP answer. To final: time to the outcome, which is the answer itself"
                        + " for a synchronous strategy and the result on checkout.results for kafka.");
    }

    Table processTable() {
        var kinds = new LinkedHashSet<String>();
        runs.forEach(run -> run.resources().processes().forEach(process -> kinds.add(process.kind())));
        var columns = new ArrayList<String>();
        columns.add("Strategy");
        if (kinds.isEmpty()) {
            columns.add("App processes");
        }
        for (var kind : kinds) {
            columns.add(kind + " CPU avg %");
            columns.add(kind + " CPU max %");
            columns.add(kind + " RSS max MiB");
        }
        var rows = runs.stream()
                .map(run -> {
                    var row = new ArrayList<String>();
                    row.add(run.label());
                    if (kinds.isEmpty()) {
                        row.add("n/a (not started by the lab)");
                    }
                    for (var kind : kinds) {
                        var usage = run.resources().processes().stream()
                                .filter(process -> process.kind().equals(kind))
                                .findFirst();
                        row.add(usage.map(u -> Cells.decimal(u.cpuAvgPercent(), 1))
                                .orElse(Cells.NOT_AVAILABLE));
                        row.add(usage.map(u -> Cells.decimal(u.cpuMaxPercent(), 1))
                                .orElse(Cells.NOT_AVAILABLE));
                        row.add(usage.map(u -> Cells.decimal(u.rssMaxMiB(), 0)).orElse(Cells.NOT_AVAILABLE));
                    }
                    return (List<String>) row;
                })
                .toList();
        return new Table(
                "App processes",
                columns,
                rows,
                "CPU in percent of one core, all processes of a kind together; RSS of the largest one. Sampled every"
                        + " 200 ms from /proc during the run.");
    }

    Table databaseTable() {
        var rows = runs.stream()
                .map(run -> {
                    ResourceUsage.DatabaseUsage database = run.resources().database();
                    return List.of(
                            run.label(),
                            Cells.integer(database.peakActiveSessions()),
                            Cells.decimal(database.cpuAvgPercent(), 1),
                            Cells.decimal(database.cpuMaxPercent(), 1),
                            Cells.decimal(database.cpuSeconds(), 2));
                })
                .toList();
        return new Table(
                "PostgreSQL",
                List.of("Strategy", "Active sessions (peak)", "CPU avg %", "CPU max %", "CPU, s"),
                rows,
                "Active sessions: pg_stat_activity of the run's database in state active. CPU: all server processes,"
                        + " n/a when they are not visible from the lab.");
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<Chart>();
        if (runs.isEmpty()) {
            return charts;
        }
        charts.add(new Chart.Bars(
                "checkout-latency", "Checkout latency (HTTP answer)", "ms", false, percentileSeries(false)));
        if (runs.stream().anyMatch(run -> run.finalLatency() != null)) {
            charts.add(new Chart.Bars("final-latency", "Time to final outcome", "ms", false, percentileSeries(true)));
        }
        var statuses = new LinkedHashMap<String, Map<String, Number>>();
        for (var run : runs) {
            run.httpStatuses()
                    .forEach((status, count) -> statuses.computeIfAbsent(status, key -> new LinkedHashMap<>())
                            .put(run.label(), count));
        }
        charts.add(new Chart.Bars("http-statuses", "HTTP statuses of the checkouts", "answers", true, statuses));
        var invariants = new LinkedHashMap<String, Map<String, Number>>();
        for (var run : runs) {
            invariants
                    .computeIfAbsent("units sold (completed)", key -> new LinkedHashMap<>())
                    .put(run.label(), run.invariants().completedQuantity());
            invariants
                    .computeIfAbsent("stock left", key -> new LinkedHashMap<>())
                    .put(run.label(), run.invariants().stockLeft());
            invariants
                    .computeIfAbsent("initial stock", key -> new LinkedHashMap<>())
                    .put(run.label(), run.invariants().initialStock());
        }
        charts.add(new Chart.Bars(
                "invariants",
                "Invariants: units sold + stock left should equal the initial stock",
                "units",
                false,
                invariants));
        return charts;
    }

    private Map<String, Map<String, Number>> percentileSeries(boolean toFinal) {
        var series = new LinkedHashMap<String, Map<String, Number>>();
        Map<String, ToDoubleFunction<Latency>> percentiles = new LinkedHashMap<>();
        percentiles.put("p50", Latency::p50Ms);
        percentiles.put("p95", Latency::p95Ms);
        percentiles.put("p99", Latency::p99Ms);
        percentiles.put("max", Latency::maxMs);
        percentiles.forEach((name, percentile) -> {
            var values = new LinkedHashMap<String, Number>();
            for (var run : runs) {
                var latency = toFinal ? run.finalLatency() : run.checkoutLatency();
                if (latency != null && latency.count() > 0) {
                    values.put(run.label(), percentile.applyAsDouble(latency));
                }
            }
            series.put(name, values);
        });
        return series;
    }

    private static void percentiles(@org.jspecify.annotations.Nullable Latency latency, List<String> row) {
        row.add(Cells.duration(latency, Latency::p50Ms));
        row.add(Cells.duration(latency, Latency::p95Ms));
        row.add(Cells.duration(latency, Latency::p99Ms));
        row.add(Cells.duration(latency, Latency::maxMs));
    }
}
