package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The "Cost per checkout" table and chart of any experiment that drives checkouts, a row (a bar) per run. Reports
 * written before the lab measured the cost have none: they show neither.
 */
public final class CheckoutCosts {

    public static final String TITLE = "Cost per checkout";
    public static final String CHART_FILE = "cost-per-checkout";

    private static final String NOTE = "Per decided checkout (completed or rejected, as the database counts them):"
            + " CPU milliseconds of each component over the run, all its processes together, PostgreSQL's being the"
            + " whole server with its backends (the lab's own JVM is not counted); lock waits: session-milliseconds"
            + " of the run's database in wait event Lock, sampled every 200 ms; WAL: bytes the whole server wrote"
            + " during the run. n/a: not measured.";

    private CheckoutCosts() {}

    /** The table, or none when no run has a cost. */
    public static <R> List<Table> table(
            String rowHeading, List<R> runs, Function<R, String> label, Function<R, @Nullable CheckoutCost> cost) {
        if (runs.stream().allMatch(run -> cost.apply(run) == null)) {
            return List.of();
        }
        var columns = new ArrayList<Column<R>>();
        columns.add(Column.of(rowHeading, label));
        columns.add(Column.of("Decided", cost, known -> Long.toString(known.decided())));
        for (var component : CheckoutCost.COMPONENTS) {
            columns.add(Column.of(
                    component + " CPU ms",
                    cost,
                    known -> Cells.decimal(known.cpuMsByComponent().get(component), 2)));
        }
        columns.add(Column.of("Total CPU ms", cost, known -> Cells.decimal(known.totalCpuMs(), 2)));
        columns.add(Column.of("Lock waits ms", cost, known -> Cells.decimal(known.lockWaitMs(), 2)));
        columns.add(Column.of("WAL bytes", cost, known -> Cells.integer(known.walBytes())));
        return List.of(Table.of(TITLE, columns, runs, NOTE));
    }

    /** CPU ms per checkout stacked by component, a bar per run that has a cost; none when no run has one. */
    public static <R> List<Chart> chart(
            List<R> runs, Function<R, String> label, Function<R, @Nullable CheckoutCost> cost) {
        var series = new LinkedHashMap<String, Map<String, Number>>();
        for (var run : runs) {
            var known = cost.apply(run);
            if (known == null) {
                continue;
            }
            known.cpuMsByComponent().forEach((component, millis) -> {
                if (millis != null) {
                    series.computeIfAbsent(component, key -> new LinkedHashMap<>())
                            .put(label.apply(run), millis);
                }
            });
        }
        return series.isEmpty()
                ? List.of()
                : List.of(new Chart.Bars(CHART_FILE, "CPU per decided checkout, by component", "CPU ms", true, series));
    }
}
