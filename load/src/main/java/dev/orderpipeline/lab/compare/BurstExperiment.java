package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.Burst;
import dev.orderpipeline.lab.pipeline.PreparedCheckout;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The skeleton of a compare, whatever its workload: per strategy the API offers (and per repetition) a warm-up and a run on fresh
 * products, each run's orders placed before anything is timed and their checkouts released at once; the {@link
 * Workload} says what an order is and how a run is judged.
 */
public final class BurstExperiment {

    private BurstExperiment() {}

    /** What one experiment checks out and measures. */
    public interface Workload<R> {

        /** The name the API's checkout knows the strategy by. */
        default String apiName(String strategy) {
            return strategy;
        }

        /**
         * A run not reported, before the strategy's first: its first checkouts pay for class loading, JIT compilation
         * and new connections, which would otherwise count against whichever strategy runs first.
         */
        void warmUp(String strategy);

        /** One measured run, {@code label} naming it on the progress line and in the report. */
        R run(String strategy, int repetition, String label);

        /** The line the progress keeps of a finished run. */
        String describe(R run);
    }

    /** The runs, and the strategies the API does not offer. */
    public record Outcome<R>(List<R> runs, List<SkippedStrategy> skipped) {}

    /** The strategies {@code api} offers, repetitions outermost; the others skipped. */
    public static <R> Outcome<R> run(
            ApiClient api, List<String> strategies, int repetitions, Progress progress, Workload<R> workload) {
        var skipped = new ArrayList<SkippedStrategy>();
        var offered = Strategies.offered(
                api,
                strategies,
                workload::apiName,
                progress,
                strategy -> skipped.add(new SkippedStrategy(strategy, Strategies.UNKNOWN)));
        var runs = new ArrayList<R>();
        // repetitions outermost: a slow drift of the machine spreads over all strategies instead of one
        for (var repetition = 1; repetition <= repetitions; repetition++) {
            for (var strategy : offered) {
                var label = repetitions == 1 ? strategy : strategy + " #" + repetition;
                progress.item("strategy", runs.size() + 1, repetitions * offered.size(), label);
                if (repetition == 1) {
                    workload.warmUp(strategy);
                }
                var run = workload.run(strategy, repetition, label);
                progress.note(workload.describe(run));
                runs.add(run);
            }
        }
        return new Outcome<>(List.copyOf(runs), List.copyOf(skipped));
    }

    /** The end of a run's progress line: nothing when the invariants hold, else what does not. */
    public static String violated(List<String> violations) {
        return violations.isEmpty() ? "" : "  VIOLATED: " + String.join("; ", violations);
    }

    /** Every order's checkout at once, round-robin over the replicas; {@code atRelease} runs once all are ready. */
    public static Burst release(
            StackTarget target,
            List<UUID> orders,
            List<String> users,
            String apiStrategy,
            @Nullable Integer delayMillis,
            Runnable atRelease,
            Progress progress) {
        var apis = target.apis();
        // tokens signed and requests written before the release, so that the burst's client spends its CPU on the
        // connections alone
        var checkouts = new ArrayList<PreparedCheckout>(orders.size());
        for (var index = 0; index < orders.size(); index++) {
            checkouts.add(apis.get(index % apis.size())
                    .prepareCheckout(orders.get(index), users.get(index), apiStrategy, delayMillis));
        }
        return Burst.release(orders.size(), index -> checkouts.get(index).send(), atRelease, progress);
    }
}
