package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.List;

/**
 * A checkout that names a parameter of the lab's checkout: a strategy, a delay, a retry limit. The production
 * checkout is the pipeline and takes none of them; refusing (rather than ignoring) them tells a caller who meant to
 * run a lab strategy that nothing of the kind happened.
 */
final class LabParametersRefusedException extends ProblemException {

    /** The query parameters of the lab's checkout. */
    static final List<String> NAMES = List.of("strategy", "delayMs", "maxAttempts");

    LabParametersRefusedException(List<String> given) {
        super(
                ProblemKind.LAB_OFF,
                "The production checkout runs the pipeline and takes no " + String.join(", ", given)
                        + ": those are the lab's parameters, and the lab is off on this instance (or the request"
                        + " named no strategy). Nothing was checked out.");
        property("parameters", given);
    }
}
