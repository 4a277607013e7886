package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What a throughput experiment found, per strategy and round: the rate, and the CPU each component spent on it; and
 * what that predicts with more cores.
 *
 * @param capacity {@code null} when the probes did not run ({@code --drain-probe 0})
 */
public record ThroughputReport(
        ReportHeader header,
        ThroughputSettings settings,
        List<ThroughputRun> runs,
        List<String> skipped,
        @Nullable CapacityModel capacity)
        implements LabReport {

    public ThroughputReport {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "A closed loop on %s: %d clients, each sending its next checkout as soon as the previous"
                        + " one is answered, for %d s per run after an unreported warm-up of %d s; %d round(s), the"
                        + " strategies interleaved in each, after %d s of all of them to warm the stack up. CPU is read from /proc over the loop and the wait until"
                        + " every answered order is final, and divided by the decided checkouts. The lab runs on"
                        + " the same %d cores as what it measures: its own CPU is in the last column, the load"
                        + " average in the header.",
                settings.keys().equals(List.of(ThroughputRun.HOT))
                        ? "one hot product"
                        : "each of " + String.join(", ", settings.keys()),
                settings.connections(),
                settings.duration().toSeconds(),
                settings.warmup().toSeconds(),
                settings.repetitions(),
                settings.stackWarmup().toSeconds(),
                header.machine().cores());
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<>(List.of(throughputTable(), cpuTable(), memoryTable(), invariantsTable()));
        if (capacity != null) {
            tables.addAll(CapacityTables.tables(capacity));
        }
        if (!skipped.isEmpty()) {
            tables.add(new Table(
                    "Not run",
                    List.of("Strategy", "Reason"),
                    skipped.stream()
                            .map(strategy -> List.of(strategy, Strategies.UNKNOWN))
                            .toList(),
                    ""));
        }
        return tables;
    }

    Table throughputTable() {
        return Table.of(
                "Throughput",
                List.<Column<ThroughputRun>>of(
                        Column.of("Run", ThroughputRun::label),
                        Column.of(
                                "Loop, s",
                                run -> Cells.decimal(run.seconds(), 1) + (run.ranOut() ? " (ran out of orders)" : "")),
                        Column.of("Checkouts/s", run -> Cells.decimal(run.checkoutsPerSecond(), 0)),
                        Column.of("Decided/s", run -> Cells.decimal(run.decidedPerSecond(), 0)),
                        Column.of("HTTP statuses", run -> Cells.counts(run.httpStatuses())),
                        Column.of("p50", run -> Cells.duration(run.latency(), Latency::p50Ms)),
                        Column.of("p99", run -> Cells.duration(run.latency(), Latency::p99Ms)),
                        Column.of("Not final at stop", run -> Long.toString(run.notFinalAtStop())),
                        Column.of("All final after", run -> Cells.decimal(run.secondsToFinal(), 1) + " s")),
                runs,
                "Checkouts/s: answers per second of the loop. Decided/s: checkouts decided by the time the loop"
                        + " stopped; for kafka the orders not final then are the workers' lag, decided in the"
                        + " seconds after.");
    }

    Table cpuTable() {
        var columns = new ArrayList<Column<ThroughputRun>>();
        columns.add(Column.of("Run", ThroughputRun::label));
        for (var component : CheckoutCost.COMPONENTS) {
            columns.add(Column.of(component, run -> millis(cpuMs(run, component))));
        }
        columns.add(Column.of(
                "total", run -> millis(run.cost() == null ? null : run.cost().totalCpuMs())));
        columns.add(Column.of("lab (load generator)", run -> millis(run.labCpuMs())));
        return Table.of(
                "CPU per decided checkout",
                columns,
                runs,
                "CPU time of all processes of a component over the sampled time (the loop and the wait until every"
                        + " answered order was final), divided by the checkouts decided; postgresql: the server with"
                        + " its backends. The lab's own JVM is not in the total. A broker and worker figure beside a"
                        + " lock strategy is what they cost idle.");
    }

    Table memoryTable() {
        var kinds = new LinkedHashSet<String>();
        runs.forEach(run -> run.resources().processes().forEach(process -> kinds.add(process.kind())));
        var columns = new ArrayList<Column<ThroughputRun>>();
        columns.add(Column.of("Run", ThroughputRun::label));
        for (var kind : kinds) {
            columns.add(Column.of(
                    kind + " RSS max MiB",
                    run -> usage(run, kind)
                            .map(process -> Cells.decimal(process.rssMaxMiB(), 0))
                            .orElse(Cells.NOT_AVAILABLE)));
        }
        return Table.of("Memory", columns, runs, "Resident memory of the largest process of each kind, sampled.");
    }

    Table invariantsTable() {
        return Table.of(
                "Invariants (read from the database)",
                List.<Column<ThroughputRun>>of(
                        Column.of("Run", ThroughputRun::label),
                        Column.of("Sent", run -> Long.toString(run.sent())),
                        verdict("Completed", RunInvariants.Summary::completed),
                        verdict("Rejected", RunInvariants.Summary::rejected),
                        verdict("Not final", RunInvariants.Summary::notFinal),
                        verdict("Drift", RunInvariants.Summary::drift),
                        verdict("Verdict", Cells::invariants)),
                runs,
                "The orders a run did not get to are removed before the check: it judges the ones sent.");
    }

    private static Column<ThroughputRun> verdict(String heading, Function<RunInvariants.Summary, Object> figure) {
        return Column.of(heading, run -> String.valueOf(figure.apply(run.invariants())));
    }

    @Override
    public List<Chart> charts() {
        var charts = new ArrayList<>(CheckoutCosts.chart(runs, ThroughputRun::label, ThroughputRun::cost));
        if (capacity != null) {
            charts.add(CapacityTables.chart(capacity));
        }
        return charts;
    }

    private static Optional<ResourceUsage.ProcessUsage> usage(ThroughputRun run, String kind) {
        return run.resources().processes().stream()
                .filter(process -> process.kind().equals(kind))
                .findFirst();
    }

    private static @Nullable Double cpuMs(ThroughputRun run, String component) {
        var cost = run.cost();
        return cost == null ? null : cost.cpuMsByComponent().get(component);
    }

    private static String millis(@Nullable Double millis) {
        return millis == null ? Cells.NOT_AVAILABLE : Cells.decimal(millis, 2) + " ms";
    }
}
