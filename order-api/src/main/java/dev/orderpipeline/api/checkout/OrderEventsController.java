package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.web.ProblemKind.AUTHENTICATION_REQUIRED;
import static dev.orderpipeline.api.web.ProblemKind.DATABASE_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.INVALID_TOKEN;
import static dev.orderpipeline.api.web.ProblemKind.MALFORMED_REQUEST;
import static dev.orderpipeline.api.web.ProblemKind.ORDER_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.OVERLOADED;

import dev.orderpipeline.api.order.OrderExamples;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.ProblemResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

@RestController
@Tag(name = "checkout")
class OrderEventsController {

    /** A stream of an order checked out and then completed, as the wire carries it. */
    static final String EXAMPLE = """
            retry:1000
            event:order
            data:{"id":"c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f","status":"CREATED",…}

            retry:1000
            event:decided
            data:{"id":"c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f","status":"COMPLETED",…}

            """;

    private final OrderEventStreams streams;

    OrderEventsController(OrderEventStreams streams) {
        this.streams = streams;
    }

    @GetMapping(path = "/api/orders/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(operationId = "orderEvents", summary = "Follow an order's status live", description = """
                    Server-sent events of one of the caller's orders, for clients that want more than `Prefer: wait`: \
                    the event `order` with the order as it is now, then, once the worker decided it, the event \
                    `decided` with the final order (COMPLETED or REJECTED), and the stream ends. An order decided \
                    already gets both at once. Each event's `data` is the order as `GET /api/orders/{id}` answers \
                    it, and its `retry` is how long to wait before reconnecting \
                    (`orderpipeline.checkout.events.reconnect-delay`, 1 s). A stream without a decision ends after \
                    `orderpipeline.checkout.events.max-lifetime` (1 min): reconnect, and the order's state comes \
                    again. The stream holds no thread on the server; an instance holds at most \
                    `orderpipeline.checkout.events.max-streams` (100) at once and answers the next one `503` \
                    `overloaded` with `Retry-After`. Someone else's order is answered `404` exactly like a missing \
                    one.""")
    @ApiResponse(
            responseCode = "200",
            description = "The stream: `order`, then `decided`, each with the order as JSON",
            content =
                    @Content(
                            mediaType = MediaType.TEXT_EVENT_STREAM_VALUE,
                            schema = @Schema(type = "string"),
                            examples = @ExampleObject(name = "checked out, then completed", value = EXAMPLE)))
    @ProblemResponses({
        MALFORMED_REQUEST,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        ORDER_NOT_FOUND,
        OVERLOADED,
        DATABASE_UNAVAILABLE
    })
    SseEmitter events(
            Caller caller,
            @Parameter(description = "The order's id", example = OrderExamples.ID) @PathVariable UUID id) {
        return streams.open(id, caller);
    }
}
