package dev.orderpipeline.lab.pipeline;

import java.util.List;

/** The checkout strategies order-api offers (or will), in the order the lab runs them: worst first. */
public final class Strategies {

    /** Every strategy, as {@code ?strategy=} names it. */
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

    /** The one that answers 202 and decides later, in the worker; the others answer with the outcome. */
    public static final String KAFKA = "kafka";

    private Strategies() {}

    public static boolean isAsynchronous(String strategy) {
        return KAFKA.equals(strategy);
    }
}
