package dev.orderpipeline.lab.compare;

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

/** {@code bin/lab compare}: the article's compare script. Fields are filled by picocli. */
@Command(
        name = "compare",
        description = {
            "For each strategy: a fresh product with INITIAL_STOCK units, PARALLEL buyers with an order each, all"
                    + " checkouts released at once; then the invariants as the database has them (oversell, drift,"
                    + " double payments, orders not final), latency, HTTP statuses, CPU and memory of the processes"
                    + " and PostgreSQL's active sessions.",
            "Writes report.json, report.md and report.html with PNG charts to the output folder."
        })
public final class CompareCommand extends BurstCommand {

    @Option(
            order = 6,
            names = "--strategies",
            paramLabel = "NAME",
            split = ",",
            description = "Strategies to run, comma-separated; default: all of "
                    + "naive, naive-tx, app-lock, db-atomic, for-update, optimistic, serializable, status-claim,"
                    + " kafka (those the API does not know are skipped).",
            showDefaultValue = Visibility.NEVER)
    List<String> strategies = new ArrayList<>(Strategies.ALL);

    @Option(order = 7, names = "--repetitions", paramLabel = "N", description = "Runs per strategy.")
    int repetitions = 1;

    @Option(
            order = 8,
            names = "--delay-ms",
            paramLabel = "MS",
            description = "Check-to-write delay passed to the API as ?delayMs= (a slow payment call); default: the"
                    + " API's own.")
    @Nullable
    Integer delayMillis;

    @Override
    protected LabReport run(StackTarget target, Progress progress, @Nullable ResultsListener results) {
        var settings = new CompareSettings(
                initialStock,
                parallel,
                quantity,
                Strategies.named(strategies),
                repetitions,
                delayMillis,
                finalTimeout(),
                warmup);
        var outcome = new CompareExperiment(target, settings, progress, results).run();
        return new CompareReport(header(target), settings, outcome.runs(), outcome.skipped());
    }
}
