package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.lab.measure.Progress;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The ways to check out that the lab compares, in the order it runs them: worst first. {@code kafka} is the
 * production checkout (the pipeline); the others are the database-lock strategies of order-api's lab part, which
 * exists only when the lab switches it on.
 */
public final class Strategies {

    /** Every strategy: {@code kafka}, or the lab's {@code ?strategy=} name. */
    public static final List<String> ALL = List.of(
            "naive",
            "naive-tx",
            "app-lock",
            "db-atomic",
            "for-update",
            "optimistic",
            "serializable",
            "status-claim",
            "kafka");

    /**
     * The pipeline, the production checkout: it answers 202 and the worker decides later; the others answer with
     * the outcome.
     */
    public static final String KAFKA = "kafka";

    private Strategies() {}

    public static boolean isAsynchronous(String strategy) {
        return KAFKA.equals(strategy);
    }

    /** Why a strategy asked for is not run. */
    public static final String UNKNOWN = "order-api does not know it (400 unknown-strategy)";

    /** The names as given on the command line, blanks dropped. */
    public static List<String> named(List<String> names) {
        return names.stream().map(String::strip).filter(name -> !name.isEmpty()).toList();
    }

    /**
     * Those of {@code strategies} the API offers, in order, asked by the name it knows each by ({@code apiName}: the
     * carts' saga is its pipeline); each other one is noted on the progress line and handed to {@code skipped}.
     */
    public static List<String> offered(
            ApiClient api,
            List<String> strategies,
            Function<String, String> apiName,
            Progress progress,
            Consumer<String> skipped) {
        return strategies.stream()
                .filter(strategy -> {
                    var known = api.supportsStrategy(apiName.apply(strategy));
                    if (!known) {
                        progress.note("Skipping " + strategy + ": " + UNKNOWN);
                        skipped.accept(strategy);
                    }
                    return known;
                })
                .toList();
    }
}
