package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
    private final Counter deadLetterSkipped;
    private final Timer batchApply;
    private final Timer listener;
    private final DistributionSummary batchSize;
    private final MeterRegistry registry;
    private final Map<String, Timer> steps = new ConcurrentHashMap<>();

    CheckoutMetrics(MeterRegistry registry) {
        this.registry = registry;
        completed = commands(registry, "completed");
        rejected = commands(registry, "rejected");
        duplicate = commands(registry, "duplicate");
        deadLettered = commands(registry, "dead_lettered");
        deadLetterSkipped = Counter.builder("checkout.commands.dead-letter.skipped")
                .description("Records set aside without a dead letter, because even its bounded copy was refused as"
                        + " too large; each is logged with its topic, partition and offset")
                .register(registry);
        batchApply = Timer.builder("checkout.batch.apply")
                .description("Time to apply one poll's checkout commands, commit included")
                .publishPercentileHistogram()
                .register(registry);
        listener = Timer.builder("checkout.batch.listener")
                .description("Time the listener spends on one poll: applying it and reporting the outcomes")
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

    /** Runs and times the listener's work on one poll. */
    void timeListener(Runnable work) {
        listener.record(work);
    }

    /**
     * Runs and times one step of applying or reporting a poll. The steps (tag {@code step}: lock_orders,
     * find_recorded, lock_stock, take_stock, statuses, payments, outcomes, commit, results, stock, dead_letters) do not
     * overlap, so where a poll's time goes is their sum per poll.
     */
    <T> T timeStep(String step, Supplier<T> work) {
        var started = System.nanoTime();
        try {
            return work.get();
        } finally {
            recordStep(step, System.nanoTime() - started);
        }
    }

    void timeStep(String step, Runnable work) {
        var started = System.nanoTime();
        try {
            work.run();
        } finally {
            recordStep(step, System.nanoTime() - started);
        }
    }

    void recordStep(String step, long nanos) {
        steps.computeIfAbsent(
                        step,
                        name -> Timer.builder("checkout.batch.step")
                                .description("Time spent in one step of applying or reporting a poll")
                                .tag("step", name)
                                .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
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

    void deadLettered(int records) {
        deadLettered.increment(records);
    }

    void deadLetterSkipped() {
        deadLetterSkipped.increment();
    }
}
