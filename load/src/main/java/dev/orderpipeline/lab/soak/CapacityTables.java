package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The capacity model as a reader sees it: the rates by cores with what bounds each, and its inputs. */
final class CapacityTables {

    private static final String ASSUMPTIONS = "Assumptions. Each of order-api, the broker, the workers and PostgreSQL"
            + " has the column's cores to itself, and a checkout costs each what it cost in the run named (the CPU per"
            + " decided checkout at the highest rate the strategy kept up with, else at its highest achieved): a"
            + " component allows cores x 1000 / its ms checkouts per second. A lock strategy's path is order-api and"
            + " PostgreSQL only. One hot product is bound besides by what serializes it, which cores do not move: for"
            + " the pipeline one partition, whose commands one consumer applies in order (the drain probe's rate,"
            + " measured on the shared cores, so a floor); for a lock strategy the product's row, held by one"
            + " transaction at a time through its commit's WAL flush (the hot-row probe: one checkout per transaction"
            + " on many connections, no API, PostgreSQL with the cores to itself). Spread keys: enough partitions and"
            + " worker processes that no partition binds (at least rate / the partition's rate), and a lock strategy"
            + " pays what it paid here on those keys. Not modelled: a network between the components (here loopback),"
            + " disks busier than one flush at a time, memory, and contention that grows with the rate. This machine:"
            + " everything, the lab's load generator included, on its cores together, against what that run achieved"
            + " (bounded by the highest rate tried).";

    private CapacityTables() {}

    static List<Table> tables(CapacityModel model) {
        return List.of(rates(model), inputs(model));
    }

    private static Table rates(CapacityModel model) {
        var columns = new ArrayList<Column<CapacityModel.Estimate>>();
        columns.add(Column.of("Strategy", CapacityModel.Estimate::strategy));
        columns.add(Column.of("Keys", CapacityModel.Estimate::keys));
        columns.add(Column.of("Costs of", CapacityModel.Estimate::run));
        for (var index = 0; index < model.cores().size(); index++) {
            var at = index;
            var cores = model.cores().get(index);
            columns.add(Column.of(
                    cores + (cores == 1 ? " core" : " cores") + " each",
                    estimate -> rate(estimate.rates().get(at))));
        }
        columns.add(Column.of(
                "This machine (" + model.machineCores() + " cores): model", estimate -> rate(estimate.thisMachine())));
        columns.add(Column.of("measured", estimate -> perSecond(estimate.measuredPerSecond())));
        columns.add(Column.of(
                "measured / model",
                estimate -> estimate.thisMachine().perSecond() > 0
                        ? Cells.decimal(
                                estimate.measuredPerSecond()
                                        / estimate.thisMachine().perSecond(),
                                2)
                        : Cells.NOT_AVAILABLE));
        return Table.of(
                "Capacity model: checkouts/s by cores per component (what bounds it)",
                columns,
                model.estimates(),
                ASSUMPTIONS);
    }

    private static Table inputs(CapacityModel model) {
        var drain = model.partitionDrain();
        var rows = new ArrayList<List<String>>();
        rows.add(List.of(
                CapacityModel.PARTITION,
                perSecond(drain.perSecond()),
                String.format(
                        Locale.ROOT,
                        "%d checkouts of one product sent to the command topic at once, decided by the stack's worker"
                                + " in %.2f s from the first result to the last",
                        drain.commands(),
                        drain.seconds()),
                Cells.invariants(drain.invariants())));
        var best = CapacityModel.best(model.hotRow());
        for (var run : model.hotRow()) {
            rows.add(List.of(
                    CapacityModel.HOT_ROW + (run.perSecond() == best ? " (the best: the model's)" : ""),
                    perSecond(run.perSecond()),
                    String.format(
                            Locale.ROOT,
                            "%d checkouts on one product, one per transaction, by %d connection(s) at once in %.2f s",
                            run.commands(),
                            run.writers(),
                            run.seconds()),
                    Cells.invariants(run.invariants())));
        }
        return new Table(
                "Capacity model: the probes",
                List.of("Bound", "Rate", "Measured as", "Invariants"),
                rows,
                "Run after the soak's runs on the same stack. The CPU per checkout comes from the runs above.");
    }

    private static String rate(CapacityModel.Rate rate) {
        return perSecond(rate.perSecond()) + " (" + rate.bound() + ")";
    }

    private static String perSecond(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f/s", perSecond);
    }
}
