package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.List;

/** The {@code strategy} parameter names no strategy. */
final class UnknownStrategyException extends ProblemException {

    private static final int MAX_ECHOED_LENGTH = 64;

    UnknownStrategyException(String requested, List<String> known) {
        super(
                ProblemKind.UNKNOWN_STRATEGY,
                "Unknown checkout strategy '" + shorten(requested) + "'; known: " + String.join(", ", known));
        property("strategy", shorten(requested));
        property("knownStrategies", known);
    }

    private static String shorten(String requested) {
        return requested.length() <= MAX_ECHOED_LENGTH ? requested : requested.substring(0, MAX_ECHOED_LENGTH) + "…";
    }
}
