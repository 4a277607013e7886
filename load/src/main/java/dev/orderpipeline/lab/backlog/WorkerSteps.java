package dev.orderpipeline.lab.backlog;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Where a worker spent its time, read from its Prometheus endpoint: the seconds of each step of applying and
 * reporting a poll ({@code lock_orders}, {@code commit}, ...; the steps do not overlap, so they add up to nearly the
 * listener's time), the listener's time in all, the polls it handled and the records they held.
 */
public record WorkerSteps(Map<String, Double> stepSeconds, double listenerSeconds, long polls, long records) {

    private static final Pattern STEP = Pattern.compile(
            "^checkout_batch_step_seconds_sum\\{[^}]*step=\"([^\"]+)\"[^}]*}\\s+(\\S+)", Pattern.MULTILINE);
    private static final Pattern LISTENER =
            Pattern.compile("^checkout_batch_listener_seconds_sum(?:\\{[^}]*})?\\s+(\\S+)", Pattern.MULTILINE);
    private static final Pattern POLLS =
            Pattern.compile("^checkout_batch_listener_seconds_count(?:\\{[^}]*})?\\s+(\\S+)", Pattern.MULTILINE);
    private static final Pattern RECORDS =
            Pattern.compile("^checkout_batch_size_records_sum(?:\\{[^}]*})?\\s+(\\S+)", Pattern.MULTILINE);

    public WorkerSteps {
        stepSeconds = new TreeMap<>(stepSeconds);
    }

    /** Reads the Prometheus text format; meters that are missing count as zero. */
    static WorkerSteps parse(String prometheus) {
        var steps = new TreeMap<String, Double>();
        var matcher = STEP.matcher(prometheus);
        while (matcher.find()) {
            steps.merge(matcher.group(1), Double.parseDouble(matcher.group(2)), Double::sum);
        }
        return new WorkerSteps(
                steps,
                first(LISTENER, prometheus),
                Math.round(first(POLLS, prometheus)),
                Math.round(first(RECORDS, prometheus)));
    }

    /** The same meters of several workers added up. */
    public WorkerSteps plus(WorkerSteps other) {
        var steps = new TreeMap<>(stepSeconds);
        other.stepSeconds.forEach((step, seconds) -> steps.merge(step, seconds, Double::sum));
        return new WorkerSteps(
                steps, listenerSeconds + other.listenerSeconds, polls + other.polls, records + other.records);
    }

    public static WorkerSteps none() {
        return new WorkerSteps(Map.of(), 0, 0, 0);
    }

    private static double first(Pattern pattern, String text) {
        var matcher = pattern.matcher(text);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }
}
