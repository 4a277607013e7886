package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.web.ProblemKind;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The problems only the lab answers, in the API's vocabulary of problem types ({@link ProblemKind#TYPE_PREFIX}) but
 * kept out of the production list of kinds.
 */
final class LabProblem extends ErrorResponseException {

    private LabProblem(HttpStatus status, String slug, String title, String detail) {
        super(status, problem(status, slug, title, detail), null);
    }

    static LabProblem unknownStrategy(String name, Iterable<String> known) {
        var problem = new LabProblem(
                HttpStatus.BAD_REQUEST,
                "unknown-strategy",
                "Unknown checkout strategy",
                "No checkout strategy is named '" + name + "'; the lab knows " + String.join(", ", known));
        problem.getBody().setProperty("strategy", name);
        problem.getBody().setProperty("strategies", known);
        return problem;
    }

    /** The strategy checks out the other kind of order (one product, or a cart). */
    static LabProblem notApplicable(String strategy, UUID orderId, String why) {
        var problem = new LabProblem(
                HttpStatus.BAD_REQUEST,
                "strategy-not-applicable",
                "Checkout strategy not applicable",
                "The strategy " + strategy + " " + why + " (order " + orderId + "); nothing was checked out");
        problem.getBody().setProperty("strategy", strategy);
        problem.getBody().setProperty("orderId", orderId);
        return problem;
    }

    static LabProblem busy(UUID orderId, UUID productId, Duration waited, Duration retryAfter) {
        var problem = new LabProblem(
                HttpStatus.SERVICE_UNAVAILABLE,
                "checkout-busy",
                "Checkout busy",
                "The checkout of order " + orderId + " waited " + waited.toMillis()
                        + " ms for other checkouts of its product; the order is unchanged, retry later");
        problem.getBody().setProperty("orderId", orderId);
        problem.getBody().setProperty("productId", productId);
        problem.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
        return problem;
    }

    private static ProblemDetail problem(HttpStatus status, String slug, String title, String detail) {
        var problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(ProblemKind.TYPE_PREFIX + slug));
        problem.setTitle(title);
        return problem;
    }
}
