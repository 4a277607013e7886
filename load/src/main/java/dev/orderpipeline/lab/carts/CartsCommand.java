package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.compare.BurstCommand;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.LabReport;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/** {@code bin/lab carts}: the compare for orders of several products. Fields are filled by picocli. */
@Command(
        name = "carts",
        description = {
            "For each strategy: PRODUCTS fresh products with INITIAL_STOCK units each, PARALLEL buyers with a cart of"
                    + " LINES of them (pairs of carts list the same products in opposite orders, the shape that"
                    + " deadlocks unsorted row locks), all checkouts released at once; then decided carts per second,"
                    + " the time from the release to each decision, aborted transactions and deadlocks, and the"
                    + " invariants as the database has them.",
            "Writes report.json, report.md and report.html with PNG charts to the output folder."
        })
public final class CartsCommand extends BurstCommand {

    @Option(order = 1, names = "--products", paramLabel = "N", description = "Hot products per run.")
    int products = 3;

    @Option(order = 4, names = "--lines", paramLabel = "N", description = "Products per cart (2 to PRODUCTS).")
    int lines = 2;

    @Option(
            order = 6,
            names = "--strategies",
            paramLabel = "NAME",
            split = ",",
            description = "Strategies to run, comma-separated; default: saga, cart-for-update,"
                    + " cart-for-update-unsorted (those the API does not know are skipped).",
            showDefaultValue = Visibility.NEVER)
    List<String> strategies = new ArrayList<>(CartStrategies.ALL);

    @Override
    protected LabReport run(StackTarget target, Progress progress, @Nullable ResultsListener results) {
        var settings = new CartsSettings(
                products,
                initialStock,
                parallel,
                lines,
                quantity,
                Strategies.named(strategies),
                finalTimeout(),
                warmup);
        var outcome = new CartsExperiment(target, settings, progress, results).run();
        return new CartsReport(header(target), settings, outcome.runs(), outcome.skipped());
    }
}
