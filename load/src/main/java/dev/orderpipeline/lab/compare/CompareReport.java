package dev.orderpipeline.lab.compare;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.ResourceUsage.ProcessUsage;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
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
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

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
        var carts = settings.carts();
        var buyers = carts == null
                ? String.format(
                        Locale.ROOT,
                        "a fresh product with %d units, %d buyers with an order of one unit each",
                        settings.initialStock(),
                        settings.parallel())
                : String.format(
                        Locale.ROOT,
                        "%d fresh products with %d units each, %d buyers with a cart of %d of them (one unit a line;"
                                + " each pair of products listed both ways round)",
                        carts.products(),
                        settings.initialStock(),
                        settings.parallel(),
                        carts.lines());
        return String.format(
                Locale.ROOT,
                "Each run: %s, all checkouts released at once over %s API replica(s); the invariants are read from"
                        + " the database once every order is final.",
                buyers,
                header.target().getOrDefault("apiReplicas", "?"));
    }

    /** Every run of the pipeline (kafka, saga) is safe: see {@link dev.orderpipeline.lab.report.LabReport#holds}. */
    @Override
    public boolean holds() {
        var pipeline = List.of(Strategies.KAFKA, CompareExperiment.SAGA);
        return runs.stream()
                .filter(run -> pipeline.contains(run.strategy()))
                .allMatch(run -> run.invariants().safe());
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<>(List.of(invariantTable(), loadTable(), latencyTable()));
        if (settings.carts() != null) {
            tables.add(abortTable());
        }
        tables.addAll(CheckoutCosts.table("Strategy", runs, StrategyRun::label, StrategyRun::cost));
        tables.addAll(buyerCostTable());
        tables.addAll(notRun(skipped));
        return tables;
    }

    Table invariantTable() {
        var columns = new ArrayList<>(List.<Column<StrategyRun>>of(
                Column.of("Strategy", StrategyRun::label),
                Column.of("Oversell?", run -> Cells.yesNo(run.invariants().oversold())),
                invariant("Completed", RunVerdict::completed),
                invariant("Rejected", RunVerdict::rejected),
                invariant("Stock left", RunVerdict::stockLeft),
                invariant("Drift", RunVerdict::drift),
                invariant("Double payments", RunVerdict::doublePayments),
                invariant("Not final", RunVerdict::notFinal),
                invariant("Not checked out", RunVerdict::notCheckedOut)));
        var note = "Drift = stock left + units sold - initial stock: positive when decrements were lost (lost update),"
                + " whatever the HTTP answers said. Not checked out: orders whose checkout was answered otherwise than"
                + " 2xx (sold out at the door, shed) or not at all; they stay CREATED by design.";
        if (settings.carts() != null) {
            columns.add(invariant("Units sold", RunVerdict::completedQuantity));
            columns.add(invariant("Held", RunVerdict::held));
            columns.add(invariant("Held once final", RunVerdict::heldAfterAllFinal));
            columns.add(invariant("Products off", RunVerdict::productsDrifting));
            note = "Carts, and units over all the run's products. Drift and stock left count the units held (on"
                    + " RESERVED and RELEASING lines); products off: those whose stock + sold + held differs from the"
                    + " initial stock. Not final: carts neither completed nor rejected, among them those whose checkout"
                    + " failed (an HTTP error: nothing was taken). The verdict is the invariants module's, per product"
                    + " and the carts with a line of it: also a completed cart with a line not sold, a rejected one"
                    + " with a line held or sold, a double payment.";
        }
        columns.add(Column.of("Verdict", run -> Cells.invariants(run.invariants())));
        return Table.of("Invariants (read from the database)", columns, runs, note);
    }

    Table abortTable() {
        return Table.of(
                "Aborted transactions",
                List.of(
                        Column.of("Strategy", StrategyRun::label),
                        Column.of(
                                "Aborted and retried (order-api)",
                                StrategyRun::carts,
                                carts -> Cells.integer(carts.abortedTransactions())),
                        Column.of(
                                "Deadlocks (PostgreSQL)",
                                StrategyRun::carts,
                                carts -> Long.toString(carts.deadlocks()))),
                runs,
                "Aborted: transactions order-api's lab ran again after PostgreSQL aborted them. Deadlocks:"
                        + " pg_stat_database.deadlocks of the run's database, before and after the run.");
    }

    private static Column<StrategyRun> invariant(String heading, ToLongFunction<RunVerdict> figure) {
        return Column.count(heading, run -> figure.applyAsLong(run.invariants()));
    }

    Table loadTable() {
        return Table.of(
                "Load",
                List.<Column<StrategyRun>>of(
                        Column.of("Strategy", StrategyRun::label),
                        Column.of("Elapsed, s", run -> Cells.decimal(run.elapsedSeconds(), 2)),
                        Column.of("Decided/s", run -> Cells.decimal(run.decidedPerSecond(), 1)),
                        Column.of("HTTP statuses", run -> Cells.counts(run.httpStatuses())),
                        Column.of(
                                "Results missing",
                                run -> run.resultsMissing() == null ? "-" : Long.toString(run.resultsMissing()))),
                runs,
                "Elapsed: from the release of the checkouts to the last order becoming final.");
    }

    Table latencyTable() {
        var columns = new ArrayList<Column<StrategyRun>>();
        columns.add(Column.of("Strategy", StrategyRun::label));
        columns.addAll(Column.percentiles("", StrategyRun::checkoutLatency));
        columns.addAll(Column.percentiles("to final ", StrategyRun::finalLatency));
        return Table.of(
                "Checkout latency",
                columns,
                runs,
                "The first four: time to the HTTP answer. To final: time to the outcome, which is the answer itself"
                        + " for a synchronous strategy and the result on checkout.results for kafka and the saga.");
    }

    /**
     * CPU per buyer, every checkout released counted whatever its answer: in a flash sale most buyers are refused
     * (sold out, or shed with 503), so this is the cost of a refusal more than of a sale. None in reports that did not
     * watch the lab's own JVM.
     */
    List<Table> buyerCostTable() {
        if (runs.stream().noneMatch(run -> cpuSeconds(run, StackTarget.LAB) != null)) {
            return List.of();
        }
        var columns = new ArrayList<Column<StrategyRun>>();
        columns.add(Column.of("Strategy", StrategyRun::label));
        columns.add(Column.of("Buyers", run -> Long.toString(buyers(run))));
        for (var kind : List.of(StackTarget.API, StackTarget.BROKER, StackTarget.WORKER)) {
            columns.add(Column.of(kind + " CPU ms", run -> perBuyer(run, cpuSeconds(run, kind))));
        }
        columns.add(Column.of(
                CheckoutCost.POSTGRESQL + " CPU ms",
                run -> perBuyer(run, run.resources().database().cpuSeconds())));
        columns.add(Column.of("lab client CPU ms", run -> perBuyer(run, cpuSeconds(run, StackTarget.LAB))));
        return List.of(Table.of(
                "Cost per buyer",
                columns,
                runs,
                "CPU milliseconds per buyer released, whatever the answer (sold, sold out, shed, no answer), from the"
                        + " release until every order was final; the lab client is the lab's own JVM, which holds"
                        + " every buyer's connection."));
    }

    private static long buyers(StrategyRun run) {
        return run.httpStatuses().values().stream().mapToLong(Long::longValue).sum();
    }

    private static String perBuyer(StrategyRun run, @Nullable Double seconds) {
        var buyers = buyers(run);
        return seconds == null || buyers == 0 ? Cells.NOT_AVAILABLE : Cells.decimal(seconds * 1000 / buyers, 3);
    }

    private static @Nullable Double cpuSeconds(StrategyRun run, String kind) {
        return run.resources().process(kind).map(ProcessUsage::cpuSeconds).orElse(null);
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
        // the books of every strategy side by side: where they do not add up, the strategy oversold or lost updates
        var carts = settings.carts() != null;
        var invariants = new LinkedHashMap<String, Map<String, Number>>();
        invariants.putAll(
                series("units sold (completed)", run -> run.invariants().completedQuantity()));
        if (carts) {
            invariants.putAll(series("held", run -> run.invariants().held()));
        }
        invariants.putAll(series("stock left", run -> run.invariants().stockLeft()));
        invariants.putAll(series("initial stock", run -> run.invariants().initialStock()));
        charts.add(new Chart.Bars(
                "invariants",
                "Invariants: units sold + " + (carts ? "held + " : "") + "stock left should equal the initial stock",
                "units",
                false,
                invariants));
        if (carts) {
            var aborted = new LinkedHashMap<String, Map<String, Number>>();
            // the series every strategy has first: the chart orders strategies as its first series names them
            aborted.putAll(series(
                    "deadlocks (PostgreSQL)",
                    run -> run.carts() == null ? null : run.carts().deadlocks()));
            aborted.putAll(series(
                    "aborted and retried (order-api)",
                    run -> run.carts() == null ? null : run.carts().abortedTransactions()));
            charts.add(new Chart.Bars("aborted-transactions", "Aborted transactions", "transactions", false, aborted));
        }
        charts.addAll(CheckoutCosts.chart(runs, StrategyRun::label, StrategyRun::cost));
        return charts;
    }

    private Map<String, Map<String, Number>> percentileSeries(boolean toFinal) {
        var series = new LinkedHashMap<String, Map<String, Number>>();
        Latency.PERCENTILES.forEach((name, percentile) -> series.putAll(series(name, run -> {
            var latency = toFinal ? run.finalLatency() : run.checkoutLatency();
            return latency != null && latency.count() > 0 ? percentile.applyAsDouble(latency) : null;
        })));
        return series;
    }

    /** One series of a bar chart, a value per run under its label; runs without the figure are left out of it. */
    private Map<String, Map<String, Number>> series(String name, Function<StrategyRun, @Nullable Number> figure) {
        var values = new LinkedHashMap<String, Number>();
        for (var run : runs) {
            var value = figure.apply(run);
            if (value != null) {
                values.put(run.label(), value);
            }
        }
        return Map.of(name, values);
    }

    /** The table of strategies asked for and not run, if there are any. */
    public static List<Table> notRun(List<SkippedStrategy> skipped) {
        var rows = skipped.stream()
                .map(skip -> List.of(skip.strategy(), skip.reason()))
                .toList();
        return skipped.isEmpty() ? List.of() : List.of(new Table("Not run", List.of("Strategy", "Reason"), rows, ""));
    }
}
