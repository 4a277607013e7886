package dev.orderpipeline.api.order;

import static dev.orderpipeline.api.web.ProblemKind.AUTHENTICATION_REQUIRED;
import static dev.orderpipeline.api.web.ProblemKind.DATABASE_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.INVALID_TOKEN;
import static dev.orderpipeline.api.web.ProblemKind.MALFORMED_REQUEST;
import static dev.orderpipeline.api.web.ProblemKind.ORDER_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.PAYLOAD_TOO_LARGE;
import static dev.orderpipeline.api.web.ProblemKind.PRODUCT_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.UNSUPPORTED_MEDIA_TYPE;
import static dev.orderpipeline.api.web.ProblemKind.VALIDATION_FAILED;

import dev.orderpipeline.api.product.ProductNotFoundException;
import dev.orderpipeline.api.product.ProductRepository;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.ProblemException;
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
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/orders", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "orders", description = "A buyer's order of one product, or a cart of several, visible to its owner only")
class OrderController {

    private final OrderRepository orders;
    private final ProductRepository products;

    OrderController(OrderRepository orders, ProductRepository products) {
        this.orders = orders;
        this.products = products;
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
                    does not), and the order's amount (price times quantity, over all lines) must fit a payment.""",
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
            headers = @Header(name = "Location", description = "/api/orders/{id}"),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Order.class),
                            examples = {
                                @ExampleObject(name = "created", value = OrderExamples.CREATED),
                                @ExampleObject(name = "cart created", value = OrderExamples.CART_CREATED)
                            }))
    @ProblemResponses({
        VALIDATION_FAILED,
        MALFORMED_REQUEST,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        PRODUCT_NOT_FOUND,
        PAYLOAD_TOO_LARGE,
        UNSUPPORTED_MEDIA_TYPE,
        DATABASE_UNAVAILABLE
    })
    ResponseEntity<Order> create(Caller caller, @Valid @RequestBody CreateOrderRequest request) {
        var order = switch (request.toPlacement(caller)) {
            case NewOrder single -> place(single);
            case NewCart cart -> place(cart);
        };
        return ResponseEntity.created(URI.create("/api/orders/" + order.id())).body(order);
    }

    private Order place(NewOrder newOrder) {
        // the insert decided; reading the product only tells which of its two guards said no
        return orders.insert(newOrder)
                .orElseThrow(() -> products.findById(newOrder.productId())
                        .<ProblemException>map(product -> OrderAmountTooLargeException.of(newOrder, product.price()))
                        .orElseGet(() -> new ProductNotFoundException(newOrder.productId())));
    }

    private Order place(NewCart cart) {
        // as for one product: the insert decided, and the reads only tell which guard said no
        return orders.insert(cart)
                .orElseThrow(() -> orders.firstUnknownProduct(cart)
                        .<ProblemException>map(ProductNotFoundException::new)
                        .orElseGet(() -> OrderAmountTooLargeException.of(cart, orders.amount(cart))));
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
