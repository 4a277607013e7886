package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.web.ProblemKind.AUTHENTICATION_REQUIRED;
import static dev.orderpipeline.api.web.ProblemKind.BROKER_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.CHECKOUT_BUSY;
import static dev.orderpipeline.api.web.ProblemKind.DATABASE_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.INVALID_TOKEN;
import static dev.orderpipeline.api.web.ProblemKind.MALFORMED_REQUEST;
import static dev.orderpipeline.api.web.ProblemKind.ORDER_NOT_CHECKOUTABLE;
import static dev.orderpipeline.api.web.ProblemKind.ORDER_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.UNKNOWN_STRATEGY;
import static dev.orderpipeline.api.web.ProblemKind.VALIDATION_FAILED;

import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderExamples;
import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.ProblemResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "checkout", description = "Deciding an order: through the pipeline, or with one of the lab's strategies")
class CheckoutController {

    private final CheckoutService checkout;
    private final CheckoutProperties properties;

    CheckoutController(CheckoutService checkout, CheckoutProperties properties) {
        this.checkout = checkout;
        this.properties = properties;
    }

    /**
     * 200 with the final order when the strategy decided it (or the awaited decision came in time), 202 with where
     * to poll when the checkout was handed on.
     *
     * <p>{@code delayMs} and {@code maxAttempts} are the lab's per-request knobs: the pause between a strategy's
     * read and its write (a slow payment call), and the retry limit of the retrying strategies. Without them the
     * configured values apply.
     */
    @PostMapping(path = "/api/orders/{id}/checkout", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "checkoutOrder", summary = "Check out an order", description = """
                    Checks out one of the caller's CREATED orders with the chosen strategy.

                    With `kafka` (the default) the checkout is handed to the pipeline: `202` once the broker \
                    acknowledged the command, with a `Location` to poll; the order is decided by the worker. With \
                    `Prefer: wait=N` the API waits up to N seconds (capped by the server) for the decision and \
                    answers `200` with the decided order, or still `202` if it did not come in time; \
                    `Preference-Applied` says the wait was honoured. Checking out a CREATED order again publishes \
                    the same command, applied once. When the broker does not acknowledge in time: `503` with \
                    `Retry-After`, and the order is unchanged.

                    The database-lock strategies decide in the request and answer `200` with the order COMPLETED \
                    or REJECTED (`rejectReason`). A second checkout of a decided order answers `409`.""")
    @ApiResponse(
            responseCode = "200",
            description = "Decided: the order COMPLETED (a payment was captured) or REJECTED with its reason",
            headers =
                    @Header(
                            name = PreferWait.PREFERENCE_APPLIED,
                            description = "wait=N when the client's Prefer: wait was honoured"),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Order.class),
                            examples = {
                                @ExampleObject(name = "completed", value = OrderExamples.COMPLETED),
                                @ExampleObject(name = "rejected", value = OrderExamples.REJECTED)
                            }))
    @ApiResponse(
            responseCode = "202",
            description = "Accepted by the broker, not decided yet: poll the order at Location",
            headers = {
                @Header(name = "Location", description = "/api/orders/{id}"),
                @Header(
                        name = PreferWait.PREFERENCE_APPLIED,
                        description = "wait=N when the client waited that long and the decision did not come")
            },
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = CheckoutAccepted.class),
                            examples = @ExampleObject(name = "accepted", value = CheckoutExamples.ACCEPTED)))
    @ProblemResponses({
        VALIDATION_FAILED,
        MALFORMED_REQUEST,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        UNKNOWN_STRATEGY,
        ORDER_NOT_FOUND,
        ORDER_NOT_CHECKOUTABLE,
        BROKER_UNAVAILABLE,
        DATABASE_UNAVAILABLE,
        CHECKOUT_BUSY
    })
    ResponseEntity<Object> checkout(
            Caller caller,
            @Parameter(description = "The order's id", example = OrderExamples.ID) @PathVariable UUID id,
            @Parameter(
                            description = "How to check out (case-insensitive): `kafka` hands it to the pipeline; the"
                                    + " others are the lab's database-lock strategies, which decide in the request."
                                    + " The accepted values are listed by the running API.")
                    @RequestParam(defaultValue = KafkaCheckoutStrategy.NAME)
                    String strategy,
            @Parameter(
                            description =
                                    "RFC 7240 preference; `wait=N` waits up to N seconds for the worker's decision"
                                            + " (capped by the server). Anything else, or a value it cannot read, is ignored.",
                            example = "wait=5")
                    @RequestHeader(name = PreferWait.PREFER, required = false)
                    @Nullable
                    String prefer,
            @Parameter(
                            description = "Lab knob: pause in milliseconds between a strategy's read (or lock) and its"
                                    + " write, standing for a slow payment call; ignored by strategies that do not read"
                                    + " before writing. Default: the configured one (0).")
                    @RequestParam(required = false)
                    @Nullable
                    @Min(0)
                    @Max(CheckoutOptions.MAX_DELAY_MILLIS)
                    Integer delayMs,
            @Parameter(
                            description = "Lab knob: attempts of the retrying strategies (optimistic, serializable)"
                                    + " before they reject the order; ignored by the others. Default: the configured"
                                    + " one (300).")
                    @RequestParam(required = false)
                    @Nullable
                    @Min(1)
                    @Max(CheckoutOptions.MAX_ATTEMPTS)
                    Integer maxAttempts) {
        var options = new CheckoutOptions(
                PreferWait.parse(prefer, properties.maxWait()),
                delayMs == null ? null : Duration.ofMillis(delayMs),
                maxAttempts);
        var reply = checkout.checkout(id, strategy, caller, options);
        return switch (reply) {
            case CheckoutReply.Decided decided ->
                preferenceApplied(ResponseEntity.ok(), reply).body(decided.order());
            case CheckoutReply.Accepted accepted ->
                preferenceApplied(
                                ResponseEntity.accepted().location(URI.create("/api/orders/" + accepted.orderId())),
                                reply)
                        .body(new CheckoutAccepted(accepted.orderId(), accepted.commandId(), accepted.status()));
        };
    }

    private static ResponseEntity.BodyBuilder preferenceApplied(
            ResponseEntity.BodyBuilder response, CheckoutReply reply) {
        var waited = reply.waited();
        return waited == null ? response : response.header(PreferWait.PREFERENCE_APPLIED, PreferWait.applied(waited));
    }

    /** Body of a 202: the command that carries the checkout, and the order's status so far. */
    record CheckoutAccepted(UUID orderId, UUID commandId, OrderStatus status) {}
}
