package dev.orderpipeline.api.order;

import static dev.orderpipeline.api.web.ProblemKind.AUTHENTICATION_REQUIRED;
import static dev.orderpipeline.api.web.ProblemKind.DATABASE_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.IDEMPOTENCY_KEY_REUSED;
import static dev.orderpipeline.api.web.ProblemKind.INVALID_TOKEN;
import static dev.orderpipeline.api.web.ProblemKind.MALFORMED_REQUEST;
import static dev.orderpipeline.api.web.ProblemKind.ORDER_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.PAYLOAD_TOO_LARGE;
import static dev.orderpipeline.api.web.ProblemKind.PRODUCT_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.UNSUPPORTED_MEDIA_TYPE;
import static dev.orderpipeline.api.web.ProblemKind.VALIDATION_FAILED;

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
import jakarta.validation.Valid;
import java.net.URI;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/orders", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "orders", description = "A buyer's order of one product, or a cart of several, visible to its owner only")
class OrderController {

    /** Says that a 200 repeats what an earlier request with the same Idempotency-Key placed. */
    static final String REPLAYED = "Idempotent-Replayed";

    private final OrderRepository orders;
    private final OrderPlacement placement;
    private final KnownOrders known;

    OrderController(OrderRepository orders, OrderPlacement placement, KnownOrders known) {
        this.orders = orders;
        this.placement = placement;
        this.known = known;
    }

    @PostMapping
    @Operation(
            operationId = "createOrder",
            summary = "Place an order",
            description = """
                    Places an order for the caller, in status CREATED; nothing is reserved until checkout. The body \
                    names one product (`productId`, `quantity`) or lists `lines` (`[{"productId", "quantity"}, ...]`, \
                    at most `orderpipeline.orders.max-lines`, 20 by default), not both. Lines of the same product are \
                    merged into one line, at the place the product was first listed, with their quantities added \
                    up. Lines that come down to one product place the same order as `productId` and `quantity`; two \
                    or more products place a cart, whose `productId` and `quantity` are null and whose `lines` each \
                    carry their own state through checkout. Every product must exist (404 names the first that \
                    does not), and the order's amount (price times quantity, over all lines) must fit a payment.

                    With an `Idempotency-Key` header the order is placed once per key: the same request sent again \
                    with the same key (after a timeout, or at the same time) answers `200` with the order the key \
                    placed, as it is now, and `Idempotent-Replayed: true`; the same key with another request answers \
                    `422` `idempotency-key-reused` and places nothing. Keys belong to the caller and are kept for \
                    `orderpipeline.orders.idempotency-key-retention` (24 hours by default), then forgotten. A \
                    request refused (`400`, `404`, `503`...) uses no key. Without the header, every request places \
                    an order.""",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            examples = {
                                                @ExampleObject(name = "one unit", value = OrderExamples.CREATE),
                                                @ExampleObject(name = "cart", value = OrderExamples.CREATE_CART)
                                            })))
    @ApiResponse(
            responseCode = "201",
            description = "Created; Location names the order",
            headers = @Header(name = "Location", description = "/api/orders/{id}", schema = @Schema(type = "string")),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Order.class),
                            examples = {
                                @ExampleObject(name = "created", value = OrderExamples.CREATED),
                                @ExampleObject(name = "cart created", value = OrderExamples.CART_CREATED)
                            }))
    @ApiResponse(
            responseCode = "200",
            description = "The same request was sent before with this Idempotency-Key: the order it placed, as it is"
                    + " now (it may have been checked out since)",
            headers = {
                @Header(name = "Location", description = "/api/orders/{id}", schema = @Schema(type = "string")),
                @Header(
                        name = REPLAYED,
                        description = "true: this answer repeats the order an earlier request placed",
                        schema = @Schema(type = "string", allowableValues = "true"))
            },
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Order.class),
                            examples = @ExampleObject(name = "placed before", value = OrderExamples.CREATED)))
    @ProblemResponses({
        VALIDATION_FAILED,
        MALFORMED_REQUEST,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        PRODUCT_NOT_FOUND,
        PAYLOAD_TOO_LARGE,
        UNSUPPORTED_MEDIA_TYPE,
        IDEMPOTENCY_KEY_REUSED,
        DATABASE_UNAVAILABLE
    })
    ResponseEntity<Order> create(
            Caller caller,
            @Parameter(
                            description = "Places the order once for this key, whatever the number of times the same"
                                    + " request is sent with it (retries, a double click). 1 to 255 characters among"
                                    + " A-Z a-z 0-9 and - . _ ~ + / = : (a UUID fits); a new key for every new order."
                                    + " Kept for 24 hours by default.",
                            example = "7f9c2b1e-4a6d-4e8f-9b0a-1c2d3e4f5a6b",
                            schema =
                                    @Schema(
                                            type = "string",
                                            minLength = 1,
                                            maxLength = IdempotencyKey.MAX_LENGTH,
                                            pattern = IdempotencyKey.PATTERN))
                    @RequestHeader(name = IdempotencyKey.HEADER, required = false)
                    @Nullable
                    String idempotencyKey,
            @Valid @RequestBody CreateOrderRequest request) {
        var toPlace = request.toPlacement(caller);
        if (idempotencyKey == null) {
            var order = placement.place(toPlace);
            // placed and committed: a checkout of it may now be refused at the door without reading it back
            known.remember(order);
            return ResponseEntity.created(location(order)).body(order);
        }
        var placed = placement.place(caller, IdempotencyKey.parse(idempotencyKey), request.hash(), toPlace);
        known.remember(placed.order());
        if (placed.replayed()) {
            return ResponseEntity.ok()
                    .location(location(placed.order()))
                    .header(REPLAYED, "true")
                    .body(placed.order());
        }
        return ResponseEntity.created(location(placed.order())).body(placed.order());
    }

    private static URI location(Order order) {
        return URI.create("/api/orders/" + order.id());
    }

    @GetMapping("/{id}")
    @Operation(
            operationId = "getOrder",
            summary = "Read an order",
            description = "The order as stored now, with the state of each of its lines: where to poll after a 202"
                    + " from checkout. Someone else's order is answered exactly like a missing one.")
    @ApiResponse(
            responseCode = "200",
            description = "The caller's order",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Order.class),
                            examples = {
                                @ExampleObject(name = "created", value = OrderExamples.CREATED),
                                @ExampleObject(name = "completed", value = OrderExamples.COMPLETED),
                                @ExampleObject(name = "rejected", value = OrderExamples.REJECTED),
                                @ExampleObject(name = "cart completed", value = OrderExamples.CART_COMPLETED),
                                @ExampleObject(name = "cart rejected", value = OrderExamples.CART_REJECTED)
                            }))
    @ProblemResponses({MALFORMED_REQUEST, AUTHENTICATION_REQUIRED, INVALID_TOKEN, ORDER_NOT_FOUND, DATABASE_UNAVAILABLE
    })
    Order get(
            Caller caller,
            @Parameter(description = "The order's id", example = OrderExamples.ID) @PathVariable UUID id) {
        return orders.findOwned(id, caller.userId()).orElseThrow(() -> new OrderNotFoundException(id));
    }
}
