package dev.orderpipeline.lab.report;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.measure.Latency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** How figures read in a table cell: durations as in the articles ({@code 87 ms}, {@code 2.17 s}), n/a for unknowns. */
public final class Cells {

    public static final String NOT_AVAILABLE = "n/a";

    private Cells() {}

    /** {@code 0.42 ms}, {@code 87 ms}, {@code 2.17 s}. */
    public static String duration(double millis) {
        if (millis >= 1000) {
            return String.format(Locale.ROOT, "%.2f s", millis / 1000);
        }
        if (millis >= 10) {
            return String.format(Locale.ROOT, "%.0f ms", millis);
        }
        return String.format(Locale.ROOT, "%.2f ms", millis);
    }

    /** A percentile of a distribution that may be missing. */
    public static String duration(@Nullable Latency latency, java.util.function.ToDoubleFunction<Latency> percentile) {
        return latency == null || latency.count() == 0 ? NOT_AVAILABLE : duration(percentile.applyAsDouble(latency));
    }

    public static String decimal(@Nullable Double value, int decimals) {
        return value == null ? NOT_AVAILABLE : decimal(value.doubleValue(), decimals);
    }

    public static String decimal(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    public static String integer(@Nullable Number value) {
        return value == null ? NOT_AVAILABLE : Long.toString(value.longValue());
    }

    public static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }

    /** {@code 200×100, 409×2}. */
    public static String counts(Map<String, Long> counts) {
        return counts.isEmpty()
                ? "-"
                : counts.entrySet().stream()
                        .map(entry -> entry.getKey() + "×" + entry.getValue())
                        .collect(Collectors.joining(", "));
    }

    /** {@code hold}, or the first few violations in words. */
    public static String invariants(RunVerdict invariants) {
        return invariants.holds() ? "hold" : String.join("; ", firstViolations(invariants));
    }

    /** Empty when the invariants hold, else the first few violations, to end a progress note with. */
    public static String violatedNote(RunVerdict invariants) {
        return invariants.holds() ? "" : "  VIOLATED: " + firstViolations(invariants);
    }

    private static List<String> firstViolations(RunVerdict invariants) {
        return invariants.violations().stream().limit(5).toList();
    }

    /** Seconds from milliseconds, as {@code 1.25 s}. */
    public static String seconds(double millis, int decimals) {
        return decimal(millis / 1000.0, decimals) + " s";
    }
}
