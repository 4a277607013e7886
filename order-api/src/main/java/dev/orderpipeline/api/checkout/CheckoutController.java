package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.web.ProblemKind.AUTHENTICATION_REQUIRED;
import static dev.orderpipeline.api.web.ProblemKind.BROKER_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.CHECKOUT_OUTCOME_UNKNOWN;
import static dev.orderpipeline.api.web.ProblemKind.DATABASE_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.INVALID_TOKEN;
import static dev.orderpipeline.api.web.ProblemKind.LAB_OFF;
import static dev.orderpipeline.api.web.ProblemKind.MALFORMED_REQUEST;
import static dev.orderpipeline.api.web.ProblemKind.ORDER_NOT_CHECKOUTABLE;
import static dev.orderpipeline.api.web.ProblemKind.ORDER_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.SOLD_OUT;
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
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

@RestController
@Tag(name = "checkout", description = "Deciding an order through the pipeline")
class CheckoutController {

    private static final Logger log = LoggerFactory.getLogger(CheckoutController.class);

    private static final Duration ASYNC_MARGIN = Duration.ofSeconds(5);

    private final CheckoutService checkout;
    private final CheckoutProperties properties;

    CheckoutController(CheckoutService checkout, CheckoutProperties properties) {
        this.checkout = checkout;
        this.properties = properties;
    }

    /**
     * 202 with where to poll once the broker has the command; 200 with the final order when the client preferred to
     * wait and the decision came in time.
     */
    @PostMapping(path = "/api/orders/{id}/checkout", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "checkoutOrder", summary = "Check out an order", description = """
                    Checks out one of the caller's CREATED orders through the pipeline: `202` once the broker \
                    acknowledged the command, with a `Location` to poll; the order is decided by the worker. A \
                    single-product order's command is keyed by its product; a cart's, by the order, whose \
                    coordinator reserves every line on its product's partition and completes the order only when \
                    all of them are reserved (else it releases them and rejects it). With \
                    `Prefer: wait=N` the API waits up to N seconds (capped by the server) for the decision and \
                    answers `200` with the decided order, or still `202` if it did not come in time; \
                    `Preference-Applied` says the wait was honoured. Once the broker acknowledged the command the \
                    answer is `202` or `200`, whatever happens to the wait. Checking out a CREATED order again \
                    publishes the same command, applied once. When the broker cannot be reached: `503` \
                    `broker-unavailable` with `Retry-After`, nothing was sent and the order is unchanged. When the \
                    broker took the command but did not confirm it in time: `503` `checkout-outcome-unknown` with \
                    `Retry-After`: the order may still be decided; check out again (the same command) or read the \
                    order, and never place a new one for it. A checkout of a decided order answers `409`. The \
                    checkout takes no query parameters; the lab's (`strategy`, `delayMs`, `maxAttempts`) are \
                    refused with `400`.""")
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
                                @ExampleObject(name = "rejected", value = OrderExamples.REJECTED),
                                @ExampleObject(name = "cart completed", value = OrderExamples.CART_COMPLETED),
                                @ExampleObject(name = "cart rejected", value = OrderExamples.CART_REJECTED)
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
        LAB_OFF,
        ORDER_NOT_FOUND,
        ORDER_NOT_CHECKOUTABLE,
        SOLD_OUT,
        BROKER_UNAVAILABLE,
        CHECKOUT_OUTCOME_UNKNOWN,
        DATABASE_UNAVAILABLE
    })
    ResponseEntity<Object> checkout(
            Caller caller,
            @Parameter(description = "The order's id", example = OrderExamples.ID) @PathVariable UUID id,
            @Parameter(
                            description =
                                    "RFC 7240 preference; `wait=N` waits up to N seconds for the worker's decision"
                                            + " (capped by the server). Anything else, or a value it cannot read, is ignored.",
                            example = "wait=5")
                    @RequestHeader(name = PreferWait.PREFER, required = false)
                    @Nullable
                    String prefer,
            @Parameter(hidden = true) @RequestParam MultiValueMap<String, String> query) {
        refuseLabParameters(query);
        // Prefer is declared for the API description: a request that carries it is served by checkoutAndWait, the
        // mapping with the header condition, which Spring prefers
        return response(checkout.checkout(id, caller));
    }

    /**
     * The same checkout for a request that carries {@code Prefer}: when it asks to wait, the answer comes from the
     * results topic without holding a request thread meanwhile (the servlet request goes asynchronous), and the wait
     * ends early when the client goes away or the server stops.
     */
    @PostMapping(
            path = "/api/orders/{id}/checkout",
            headers = PreferWait.PREFER,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(hidden = true)
    DeferredResult<ResponseEntity<Object>> checkoutAndWait(
            Caller caller,
            @PathVariable UUID id,
            @RequestHeader(PreferWait.PREFER) String prefer,
            @RequestParam MultiValueMap<String, String> query) {
        refuseLabParameters(query);
        var wait = PreferWait.parse(prefer, properties.maxWait());
        if (wait == null) {
            var answered = new DeferredResult<ResponseEntity<Object>>();
            answered.setResult(response(checkout.checkout(id, caller)));
            return answered;
        }
        var pending = checkout.checkoutAndWait(id, caller, wait);
        // From here on the broker has the command: every answer is a 202 or the decision, never an error that a
        // client could take for a checkout not taken. The reply completes at the end of the wait plus the final read
        // at the latest; the margin only covers a completion that never comes, and even then the answer is the 202.
        var acknowledged = response(pending.acknowledged());
        var deferred = new DeferredResult<ResponseEntity<Object>>(
                wait.plus(ASYNC_MARGIN).toMillis(), () -> acknowledged);
        deferred.onTimeout(pending.cancel());
        deferred.onError(failure -> pending.cancel().run());
        deferred.onCompletion(pending.cancel());
        pending.reply().whenComplete((reply, failure) -> {
            if (failure != null) {
                log.error("Checkout of order {} failed after the broker took it; answering 202", id, failure);
                deferred.setResult(acknowledged);
            } else {
                deferred.setResult(response(reply));
            }
        });
        return deferred;
    }

    private static void refuseLabParameters(MultiValueMap<String, String> query) {
        var labParameters = LabParametersRefusedException.NAMES.stream()
                .filter(query::containsKey)
                .toList();
        if (!labParameters.isEmpty()) {
            throw new LabParametersRefusedException(labParameters);
        }
    }

    private static ResponseEntity<Object> response(CheckoutReply reply) {
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
