package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.Options;
import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bin/lab compare}: the article's compare script, for orders or carts. Fields are filled by picocli. */
@Command(
        name = "compare",
        description = {
            "For each strategy: fresh products with INITIAL_STOCK units each, PARALLEL buyers with an order (orders:"
                    + " one product) or a cart (carts: LINES of PRODUCTS products, pairs of carts listing the same"
                    + " products in opposite orders, the shape that deadlocks unsorted row locks) each, all checkouts"
                    + " released at once; then the invariants as the database has them (oversell, drift, double"
                    + " payments, orders not final), latency, HTTP statuses, CPU per checkout of each"
                    + " process and PostgreSQL's lock waits, and for carts aborted transactions and deadlocks.",
            "Writes report.json and report.md with PNG charts to the output folder."
        })
public final class CompareCommand extends LabCommand {

    static final String ORDERS = "orders";
    static final String CARTS = "carts";

    @Option(
            order = 0,
            names = "--workload",
            paramLabel = "orders|carts",
            description = "What each buyer checks out: an order of one product, or a cart of several.")
    String workload = ORDERS;

    @Option(order = 1, names = "--products", paramLabel = "N", description = "carts: hot products per run; default 3.")
    @Nullable
    Integer products;

    @Option(order = 2, names = "--initial-stock", paramLabel = "N", description = "Units of each fresh product.")
    int initialStock = 100;

    @Option(
            order = 3,
            names = "--parallel",
            paramLabel = "N",
            description = "Buyers whose checkouts are released together.")
    int parallel = 300;

    @Option(
            order = 4,
            names = "--lines",
            paramLabel = "N",
            description = "carts: products per cart (2 to PRODUCTS); default 2.")
    @Nullable
    Integer lines;

    @Option(order = 7, names = "--repetitions", paramLabel = "N", description = "Runs per strategy.")
    int repetitions = 1;

    @Option(
            order = 9,
            names = "--final-timeout",
            paramLabel = "SECONDS",
            description = "How long to wait for every order to become final after the checkouts.")
    int finalTimeoutSeconds = 120;

    @Mixin
    Options.Strategies strategies = new Options.Strategies();

    @Option(
            order = 8,
            names = "--delay-ms",
            paramLabel = "MS",
            description = "Check-to-write delay passed to the API as ?delayMs= (a slow payment call); default: the"
                    + " API's own.")
    @Nullable
    Integer delayMillis;

    @Mixin
    Options.Warmup warmup = new Options.Warmup(100);

    @Override
    protected boolean comparesLockStrategies() {
        return true;
    }

    /** Refuses options of the other workload before the stack starts. */
    @Override
    protected LabReport execute(Progress progress) {
        settings();
        return super.execute(progress);
    }

    @Override
    protected LabReport run(StackTarget target, Progress progress) {
        return new CompareExperiment(target, settings(), progress).run(() -> header(target));
    }

    CompareSettings settings() {
        var carts = switch (workload) {
            case ORDERS -> {
                Require.check(
                        products == null && lines == null,
                        "--products and --lines are valid only with --workload carts");
                yield null;
            }
            case CARTS -> new CompareSettings.Carts(products == null ? 3 : products, lines == null ? 2 : lines);
            default -> throw new IllegalArgumentException("--workload must be orders or carts: " + workload);
        };
        var own = carts == null ? Strategies.ALL : CompareExperiment.CART_STRATEGIES;
        var other = carts == null ? CompareExperiment.CART_STRATEGIES : Strategies.ALL;
        var named = strategies.or(own);
        var foreign = named.stream().filter(other::contains).toList();
        Require.check(
                foreign.isEmpty(),
                "--strategies " + foreign + " are not of --workload " + workload + "; its own: " + own);
        return new CompareSettings(
                initialStock,
                parallel,
                named,
                repetitions,
                delayMillis,
                Duration.ofSeconds(finalTimeoutSeconds),
                warmup.size(),
                carts);
    }
}
