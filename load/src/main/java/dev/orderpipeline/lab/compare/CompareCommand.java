package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.pipeline.Target;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
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
public final class CompareCommand extends LabCommand {

    @Option(order = 1, names = "--initial-stock", paramLabel = "N", description = "Units of each fresh product.")
    int initialStock = 100;

    @Option(
            order = 2,
            names = "--parallel",
            paramLabel = "N",
            description = "Buyers whose checkouts are released together.")
    int parallel = 300;

    @Option(order = 3, names = "--quantity", paramLabel = "N", description = "Units per order.")
    int quantity = 1;

    @Option(
            order = 4,
            names = "--strategies",
            paramLabel = "NAME",
            split = ",",
            description = "Strategies to run, comma-separated; default: all of "
                    + "naive, naive-tx, app-lock, db-atomic, for-update, optimistic, serializable, status-claim,"
                    + " kafka (those the API does not know are skipped).",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    List<String> strategies = new ArrayList<>(Strategies.ALL);

    @Option(order = 5, names = "--repetitions", paramLabel = "N", description = "Runs per strategy.")
    int repetitions = 1;

    @Option(
            order = 6,
            names = "--delay-ms",
            paramLabel = "MS",
            description = "Check-to-write delay passed to the API as ?delayMs= (a slow payment call); default: the"
                    + " API's own.")
    @Nullable
    Integer delayMillis;

    @Option(
            order = 7,
            names = "--final-timeout",
            paramLabel = "SECONDS",
            description = "How long to wait for every order to become final after the checkouts.")
    int finalTimeoutSeconds = 120;

    @Option(
            order = 8,
            names = "--warmup",
            paramLabel = "N",
            description = "Checkouts per strategy before its measured runs, not reported (JIT, connections); 0: none.")
    int warmup = 100;

    @Override
    protected boolean comparesLockStrategies() {
        return true;
    }

    @Override
    protected LabReport run(Target target, Progress progress, @Nullable ResultsListener results) {
        var settings = new CompareSettings(
                initialStock,
                parallel,
                quantity,
                Strategies.named(strategies),
                repetitions,
                delayMillis,
                Duration.ofSeconds(finalTimeoutSeconds),
                warmup);
        var outcome = new CompareExperiment(target, settings, progress, results).run();
        return new CompareReport(header(target), settings, outcome.runs(), outcome.skipped());
    }
}
