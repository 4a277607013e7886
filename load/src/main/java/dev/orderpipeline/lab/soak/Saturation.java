package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.measure.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Whether a soak run kept up with its target rate, and if not, why, in words. */
final class Saturation {

    /** The share of the target rate a run must achieve to count as keeping up. */
    static final double KEEPING_UP = 0.95;

    private Saturation() {}

    /**
     * Why a run did not keep up: fewer successful answers per second than the target (errors count as not kept up),
     * p99 over the limit (for kafka the decision's too), arrivals dropped at the in-flight bound, or accepted
     * checkouts without a decision; empty when it kept up.
     */
    static List<String> reasons(
            SoakSettings settings,
            int rate,
            double achieved,
            Latency latency,
            @Nullable Latency finalLatency,
            SoakRun.@Nullable KafkaFigures kafka,
            long dropped) {
        var limit = settings.p99Limit().toMillis();
        var reasons = new ArrayList<String>();
        if (achieved < rate * KEEPING_UP) {
            reasons.add(String.format(Locale.ROOT, "achieved %.1f/s of %d/s", achieved, rate));
        }
        if (latency.p99Ms() > limit) {
            reasons.add(String.format(Locale.ROOT, "p99 %.0f ms over %d ms", latency.p99Ms(), limit));
        }
        if (dropped > 0) {
            reasons.add(dropped + " arrivals dropped at " + settings.maxInFlight() + " in flight");
        }
        if (finalLatency != null && finalLatency.p99Ms() > limit) {
            reasons.add(String.format(Locale.ROOT, "decision p99 %.0f ms over %d ms", finalLatency.p99Ms(), limit));
        }
        if (kafka != null && kafka.decided() < kafka.accepted()) {
            reasons.add((kafka.accepted() - kafka.decided()) + " accepted checkouts without a decision within "
                    + SoakExperiment.RESULTS_GRACE.toSeconds() + " s");
        }
        return reasons;
    }
}
