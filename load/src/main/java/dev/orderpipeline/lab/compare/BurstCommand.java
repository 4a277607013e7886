package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.LabCommand;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The options of {@code bin/lab compare} and {@code bin/lab carts}: a burst of checkouts on fresh products. */
public abstract class BurstCommand extends LabCommand {

    @Option(order = 2, names = "--initial-stock", paramLabel = "N", description = "Units of each fresh product.")
    protected int initialStock = 100;

    @Option(
            order = 3,
            names = "--parallel",
            paramLabel = "N",
            description = "Buyers whose checkouts are released together.")
    protected int parallel = 300;

    @Option(order = 5, names = "--quantity", paramLabel = "N", description = "Units per order line.")
    protected int quantity = 1;

    @Option(
            order = 9,
            names = "--final-timeout",
            paramLabel = "SECONDS",
            description = "How long to wait for every order to become final after the checkouts.")
    int finalTimeoutSeconds = 120;

    @Option(
            order = 10,
            names = "--warmup",
            paramLabel = "N",
            description = "Checkouts per strategy before its measured runs, not reported (JIT, connections); 0: none.")
    protected int warmup = 100;

    @Override
    protected final boolean comparesLockStrategies() {
        return true;
    }

    protected final Duration finalTimeout() {
        return Duration.ofSeconds(finalTimeoutSeconds);
    }
}
