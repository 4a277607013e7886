package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.measure.Latency;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One soak: every strategy at every rate and key distribution, each run on fresh products with one unit per arrival;
 * the fields are the options of {@code bin/lab soak}.
 */
public record SoakSettings(
        List<String> strategies,
        List<KeyDistribution> keys,
        List<Integer> rates,
        Duration duration,
        int maxInFlight,
        Duration warmup) {

    /** A p99 above this counts as saturated (for kafka: of the time to the decision too). */
    static final Duration P99_LIMIT = Duration.ofSeconds(1);

    /** The share of the target rate a run must achieve to count as keeping up. */
    static final double KEEPING_UP = 0.95;

    public SoakSettings {
        strategies = List.copyOf(strategies);
        keys = List.copyOf(keys);
        rates = List.copyOf(rates);
        Require.notEmpty("key distribution", keys);
        Require.check(!strategies.isEmpty() && !rates.isEmpty(), "at least one strategy and one rate are needed");
        rates.forEach(rate -> Require.positive("rates", rate));
        Require.positive("duration", duration);
        Require.positive("max in flight", maxInFlight);
        Require.notNegative("warm-up", warmup);
    }

    /**
     * Why a run did not keep up: fewer successful answers per second than the target (errors count as not kept up),
     * p99 over the limit (for kafka the decision's too), arrivals dropped at the in-flight bound, or accepted
     * checkouts without a decision; empty when it kept up.
     */
    List<String> saturationReasons(
            int rate,
            double achieved,
            Latency latency,
            @Nullable Latency finalLatency,
            SoakRun.@Nullable KafkaFigures kafka,
            long dropped) {
        var limit = P99_LIMIT.toMillis();
        var reasons = new ArrayList<String>();
        if (achieved < rate * KEEPING_UP) {
            reasons.add(String.format(Locale.ROOT, "achieved %.1f/s of %d/s", achieved, rate));
        }
        if (latency.p99Ms() > limit) {
            reasons.add(String.format(Locale.ROOT, "p99 %.0f ms over %d ms", latency.p99Ms(), limit));
        }
        if (dropped > 0) {
            reasons.add(dropped + " arrivals dropped at " + maxInFlight + " in flight");
        }
        if (finalLatency != null && finalLatency.p99Ms() > limit) {
            reasons.add(String.format(Locale.ROOT, "decision p99 %.0f ms over %d ms", finalLatency.p99Ms(), limit));
        }
        if (kafka != null && kafka.decided() < kafka.accepted()) {
            reasons.add((kafka.accepted() - kafka.decided()) + " accepted checkouts without a decision within "
                    + ResultsScan.GRACE.toSeconds() + " s");
        }
        return reasons;
    }
}
