package dev.orderpipeline.api.web;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * The kinds of problem the API answers with. The type URI and title of a kind never change, so clients can branch
 * on them; what happened this time goes into {@code detail} and extra properties.
 */
public enum ProblemKind {
    VALIDATION_FAILED("validation-failed", HttpStatus.BAD_REQUEST, "Request validation failed"),
    MALFORMED_REQUEST("malformed-request", HttpStatus.BAD_REQUEST, "Malformed request"),
    LAB_OFF("lab-off", HttpStatus.BAD_REQUEST, "Lab parameters on the production checkout"),
    AUTHENTICATION_REQUIRED("authentication-required", HttpStatus.UNAUTHORIZED, "Authentication required"),
    INVALID_TOKEN("invalid-token", HttpStatus.UNAUTHORIZED, "Invalid bearer token"),
    FORBIDDEN("forbidden", HttpStatus.FORBIDDEN, "Forbidden"),
    NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Resource not found"),
    PRODUCT_NOT_FOUND("product-not-found", HttpStatus.NOT_FOUND, "Product not found"),
    ORDER_NOT_FOUND("order-not-found", HttpStatus.NOT_FOUND, "Order not found"),
    METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
    ORDER_NOT_CHECKOUTABLE("order-not-checkoutable", HttpStatus.CONFLICT, "Order cannot be checked out"),
    SOLD_OUT("sold-out", HttpStatus.CONFLICT, "Product sold out"),
    IDEMPOTENCY_KEY_REUSED(
            "idempotency-key-reused", HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency key reused with another request"),
    PAYLOAD_TOO_LARGE("payload-too-large", HttpStatus.CONTENT_TOO_LARGE, "Request body too large"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
    AUTHENTICATION_UNAVAILABLE(
            "authentication-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Authentication unavailable"),
    BROKER_UNAVAILABLE("broker-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Message broker unavailable"),
    CHECKOUT_OUTCOME_UNKNOWN("checkout-outcome-unknown", HttpStatus.SERVICE_UNAVAILABLE, "Checkout outcome unknown"),
    DATABASE_UNAVAILABLE("database-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Database unavailable"),
    OVERLOADED("overloaded", HttpStatus.SERVICE_UNAVAILABLE, "Too many requests in progress"),
    INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal server error");

    /** Prefix of every problem type URI. */
    public static final String TYPE_PREFIX = "urn:order-pipeline:problem:";

    private final String slug;
    private final HttpStatus status;
    private final String title;

    ProblemKind(String slug, HttpStatus status, String title) {
        this.slug = slug;
        this.status = status;
        this.title = title;
    }

    public URI type() {
        return URI.create(TYPE_PREFIX + slug);
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** A fresh problem of this kind describing one occurrence. */
    public ProblemDetail problem(String detail) {
        var problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type());
        problem.setTitle(title);
        return problem;
    }

    /** Stamps this kind's type and title on a problem that Spring built for one of its own exceptions. */
    void stamp(ProblemDetail problem) {
        problem.setType(type());
        problem.setTitle(title);
    }

    /**
     * Types a problem that only has a status: with the kind that stands for the status when there is one, else with
     * a type derived from the status ({@code ...:http-<status>}) and its reason phrase, which stay as stable.
     */
    static void stampStatus(ProblemDetail problem, int status) {
        var kind = switch (status) {
            case 400 -> MALFORMED_REQUEST;
            case 401 -> AUTHENTICATION_REQUIRED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 500 -> INTERNAL_ERROR;
            default -> null;
        };
        if (kind != null) {
            kind.stamp(problem);
            return;
        }
        problem.setType(URI.create(TYPE_PREFIX + "http-" + status));
        var known = HttpStatus.resolve(status);
        problem.setTitle(known == null ? "HTTP " + status : known.getReasonPhrase());
    }
}
