package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.carts.CartInvariants.ProductBooks;
import dev.orderpipeline.lab.compare.CompareReport;
import dev.orderpipeline.lab.compare.SkippedStrategy;
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
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/** What a carts compare found, per strategy: its tables, and a bar chart per figure. */
public record CartsReport(
        ReportHeader header, CartsSettings settings, List<CartRun> runs, List<SkippedStrategy> skipped)
        implements LabReport {

    public CartsReport {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "Each run: %d fresh products with %d units each, %d buyers with a cart of %d of them (%d unit%s a"
                        + " line; each pair of products listed both ways round), all checkouts released at once;"
                        + " the invariants are read from the database once every cart is final.",
                settings.products(),
                settings.initialStock(),
                settings.parallel(),
                settings.lines(),
                settings.quantity(),
                settings.quantity() == 1 ? "" : "s");
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<>(List.of(invariantTable(), burstTable(), latencyTable(), abortTable()));
        tables.addAll(CompareReport.notRun(skipped));
        return tables;
    }

    Table invariantTable() {
        List<Column<CartRun>> columns = List.of(
                Column.of("Strategy", CartRun::strategy),
                outcome("Completed", CartOutcomes::completed),
                outcome("Rejected", CartOutcomes::rejected),
                outcome("Not final", CartOutcomes::notFinal),
                invariant("Units sold", books(ProductBooks::sold)),
                invariant("Held", books(ProductBooks::held)),
                invariant("Stock left", books(ProductBooks::stockLeft)),
                invariant("Products off", CartInvariants::productsOff),
                invariant("Held once final", books(ProductBooks::heldOnceFinal)),
                Column.of(
                        "Verdict",
                        run -> CompareReport.verdict(
                                run.invariants().holds(), run.invariants().violations())));
        return Table.of(
                "Invariants (read from the database)",
                columns,
                runs,
                "Units over all the run's products. Not final: carts neither completed nor rejected, among them"
                        + " those whose checkout failed (an HTTP error: nothing was taken, the buyer may try again)."
                        + " Held: units of RESERVED and RELEASING lines. Products off:"
                        + " those whose stock + sold + held differs from the initial stock. The verdict is the"
                        + " invariants module's, per product and the carts with a line of it: also a completed cart"
                        + " with a line not sold, a rejected one with a line held or sold, a double payment.");
    }

    private static Column<CartRun> outcome(String heading, ToLongFunction<CartOutcomes> figure) {
        return Column.of(
                heading,
                run -> Long.toString(figure.applyAsLong(run.invariants().outcomes())));
    }

    private static ToLongFunction<CartInvariants> books(ToLongFunction<ProductBooks> figure) {
        return invariants -> invariants.sum(figure);
    }

    private static Column<CartRun> invariant(String heading, ToLongFunction<CartInvariants> figure) {
        return Column.of(heading, run -> Long.toString(figure.applyAsLong(run.invariants())));
    }

    Table burstTable() {
        List<Column<CartRun>> columns = List.of(
                Column.of("Strategy", CartRun::strategy),
                Column.of("Carts", run -> Integer.toString(run.burst().carts())),
                Column.of("Elapsed, s", run -> Cells.decimal(run.burst().elapsedSeconds(), 2)),
                Column.of("Decided carts/s", run -> Cells.decimal(run.burst().decidedPerSecond(), 1)),
                Column.of("HTTP statuses", run -> Cells.counts(run.burst().httpStatuses())),
                Column.of("Decisions missing", run -> Long.toString(run.decisionsMissing())));
        return Table.of(
                "Burst",
                columns,
                runs,
                "Elapsed: from the release of the checkouts to the last decision the lab saw. Decisions missing:"
                        + " carts final in the database whose decision did not reach the lab.");
    }

    Table latencyTable() {
        var columns = new ArrayList<Column<CartRun>>();
        columns.add(Column.of("Strategy", CartRun::strategy));
        Latency.PERCENTILES.forEach((name, percentile) ->
                columns.add(Column.of(name, run -> Cells.duration(run.burst().toDecision(), percentile))));
        columns.add(
                Column.of("HTTP answer p50", run -> Cells.duration(run.burst().toAnswer(), Latency::p50Ms)));
        columns.add(
                Column.of("HTTP answer p99", run -> Cells.duration(run.burst().toAnswer(), Latency::p99Ms)));
        return Table.of(
                "From the release to the decision",
                columns,
                runs,
                "The decision is the answer itself for the lock strategies and the cart's result on"
                        + " checkout.results for the saga, which answers 202 first.");
    }

    Table abortTable() {
        List<Column<CartRun>> columns = List.of(
                Column.of("Strategy", CartRun::strategy),
                Column.of("Aborted and retried (order-api)", run -> Cells.integer(run.abortedTransactions())),
                Column.of("Deadlocks (PostgreSQL)", run -> Long.toString(run.deadlocks())),
                Column.of(
                        "Rejections",
                        run -> Cells.counts(run.invariants().outcomes().rejectionsByReason())));
        return Table.of(
                "Aborted transactions",
                columns,
                runs,
                "Aborted: transactions order-api's lab ran again after PostgreSQL aborted them. Deadlocks:"
                        + " pg_stat_database.deadlocks of the run's database, before and after the run.");
    }

    @Override
    public List<Chart> charts() {
        if (runs.isEmpty()) {
            return List.of();
        }
        var charts = new ArrayList<Chart>();
        charts.add(new Chart.Bars(
                "throughput",
                "Decided carts per second over the burst",
                "carts/s",
                false,
                series("decided carts/s", run -> run.burst().decidedPerSecond()),
                // a strategy that deadlocks decides a hundred times slower: its bar shows only on a log axis
                Chart.Scale.AUTO));
        var latency = new LinkedHashMap<String, Map<String, Number>>();
        latency.putAll(series("p50", run -> run.burst().toDecision().p50Ms()));
        latency.putAll(series("p99", run -> run.burst().toDecision().p99Ms()));
        charts.add(new Chart.Bars(
                "decision-latency", "From the release to the decision", "ms", false, latency, Chart.Scale.AUTO));
        var aborted = new LinkedHashMap<String, Map<String, Number>>();
        // the series every strategy has first: the chart orders strategies as its first series names them
        aborted.putAll(series("deadlocks (PostgreSQL)", CartRun::deadlocks));
        aborted.putAll(series("aborted and retried (order-api)", CartRun::abortedTransactions));
        charts.add(new Chart.Bars("aborted-transactions", "Aborted transactions", "transactions", false, aborted));
        var outcomes = new LinkedHashMap<String, Map<String, Number>>();
        outcomes.putAll(series("completed", run -> run.invariants().outcomes().completed()));
        outcomes.putAll(series("rejected", run -> run.invariants().outcomes().rejected()));
        charts.add(new Chart.Bars("outcomes", "Carts completed and rejected", "carts", true, outcomes));
        var books = new LinkedHashMap<String, Map<String, Number>>();
        books.putAll(series("units sold", run -> run.invariants().sum(ProductBooks::sold)));
        books.putAll(series("held", run -> run.invariants().sum(ProductBooks::held)));
        books.putAll(series("stock left", run -> run.invariants().sum(ProductBooks::stockLeft)));
        books.putAll(series("initial stock", run -> run.invariants().sum(ProductBooks::initialStock)));
        charts.add(new Chart.Bars(
                "invariants",
                "Invariants: units sold + held + stock left should equal the initial stock",
                "units",
                false,
                books));
        return charts;
    }

    private Map<String, Map<String, Number>> series(String name, Function<CartRun, @Nullable Number> figure) {
        return CompareReport.series(name, runs, CartRun::strategy, figure);
    }
}
