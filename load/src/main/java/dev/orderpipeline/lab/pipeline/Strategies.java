package dev.orderpipeline.lab.pipeline;

import java.util.List;

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
}
