package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/** The worker's meters: what happened to each command, how big the polls are and how long applying them takes. */
@Component
class CheckoutMetrics {

    private static final String COMMANDS = "checkout.commands";

    private final Counter completed;
    private final Counter rejected;
    private final Counter duplicate;
    private final Counter deadLettered;
    private final Timer batchApply;
    private final DistributionSummary batchSize;

    CheckoutMetrics(MeterRegistry registry) {
        completed = commands(registry, "completed");
        rejected = commands(registry, "rejected");
        duplicate = commands(registry, "duplicate");
        deadLettered = commands(registry, "dead_lettered");
        batchApply = Timer.builder("checkout.batch.apply")
                .description("Time to apply one poll's checkout commands, commit included")
                .publishPercentileHistogram()
                .register(registry);
        batchSize = DistributionSummary.builder("checkout.batch.size")
                .description("Records per poll of the checkout commands topic")
                .baseUnit("records")
                .register(registry);
    }

    private static Counter commands(MeterRegistry registry, String outcome) {
        return Counter.builder(COMMANDS)
                .description("Checkout commands by what the worker did with them")
                .tag("outcome", outcome)
                .register(registry);
    }

    void polled(int records) {
        batchSize.record(records);
    }

    /** Runs and times the application of one poll's commands. */
    <T> T timeApply(Supplier<T> apply) {
        return batchApply.record(apply);
    }

    void applied(List<CheckoutResult> results) {
        for (var result : results) {
            if (result.duplicate()) {
                duplicate.increment();
            } else if (result.outcome() == CheckoutOutcome.COMPLETED) {
                completed.increment();
            } else {
                rejected.increment();
            }
        }
    }

    void deadLettered() {
        deadLettered.increment();
    }
}
