package dev.orderpipeline.api.product;

import static dev.orderpipeline.api.web.ProblemKind.AUTHENTICATION_REQUIRED;
import static dev.orderpipeline.api.web.ProblemKind.DATABASE_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.FORBIDDEN;
import static dev.orderpipeline.api.web.ProblemKind.INVALID_TOKEN;
import static dev.orderpipeline.api.web.ProblemKind.MALFORMED_REQUEST;
import static dev.orderpipeline.api.web.ProblemKind.PAYLOAD_TOO_LARGE;
import static dev.orderpipeline.api.web.ProblemKind.PRODUCT_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.UNSUPPORTED_MEDIA_TYPE;
import static dev.orderpipeline.api.web.ProblemKind.VALIDATION_FAILED;

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
import java.util.Objects;
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
@RequestMapping(path = "/api/products", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "products", description = "What buyers order: a name, the stock left and a unit price")
class ProductController {

    private final ProductRepository products;

    ProductController(ProductRepository products) {
        this.products = products;
    }

    @PostMapping
    @Operation(
            operationId = "createProduct",
            summary = "Create a product",
            description = "Creates a product with its stock and unit price (two decimals). Every invalid field is"
                    + " reported at once.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            examples =
                                                    @ExampleObject(
                                                            name = "hot product",
                                                            value = ProductExamples.CREATE))))
    @ApiResponse(
            responseCode = "201",
            description = "Created; Location names the product",
            headers = @Header(name = "Location", description = "/api/products/{id}"),
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Product.class),
                            examples = @ExampleObject(name = "product", value = ProductExamples.PRODUCT)))
    @ProblemResponses({
        VALIDATION_FAILED,
        MALFORMED_REQUEST,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        FORBIDDEN,
        PAYLOAD_TOO_LARGE,
        UNSUPPORTED_MEDIA_TYPE,
        DATABASE_UNAVAILABLE
    })
    ResponseEntity<Product> create(@Valid @RequestBody CreateProductRequest request) {
        var product = products.insert(request.toNewProduct());
        return ResponseEntity.created(URI.create("/api/products/" + product.id()))
                .body(product);
    }

    @PostMapping("/{id}/restock")
    @Operation(
            operationId = "restockProduct",
            summary = "Add units to a product's stock",
            description = "Adds the units to the stock in the database. The door of the checkout learns it from the"
                    + " worker: a product it knew sold out takes checkouts again within"
                    + " orderpipeline.checkout.sold-out-for, when one checkout goes through and the worker publishes"
                    + " the stock.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            examples =
                                                    @ExampleObject(name = "restock", value = ProductExamples.RESTOCK))))
    @ApiResponse(
            responseCode = "200",
            description = "The product with its new stock",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Product.class),
                            examples = @ExampleObject(name = "product", value = ProductExamples.PRODUCT)))
    @ProblemResponses({
        VALIDATION_FAILED,
        MALFORMED_REQUEST,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        FORBIDDEN,
        PRODUCT_NOT_FOUND,
        PAYLOAD_TOO_LARGE,
        UNSUPPORTED_MEDIA_TYPE,
        DATABASE_UNAVAILABLE
    })
    Product restock(
            @Parameter(description = "The product's id", example = ProductExamples.ID) @PathVariable UUID id,
            @Valid @RequestBody RestockRequest request) {
        var units = Objects.requireNonNull(request.units(), "units");
        return products.restock(id, units)
                .orElseThrow(() -> products.findById(id)
                        .<RuntimeException>map(product -> new StockTooLargeException(product, units))
                        .orElseGet(() -> new ProductNotFoundException(id)));
    }

    @GetMapping("/{id}")
    @Operation(
            operationId = "getProduct",
            summary = "Read a product",
            description = "The product as stored now, its stock included.")
    @ApiResponse(
            responseCode = "200",
            description = "The product",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = Product.class),
                            examples = @ExampleObject(name = "product", value = ProductExamples.PRODUCT)))
    @ProblemResponses({MALFORMED_REQUEST, INVALID_TOKEN, PRODUCT_NOT_FOUND, DATABASE_UNAVAILABLE})
    Product get(@Parameter(description = "The product's id", example = ProductExamples.ID) @PathVariable UUID id) {
        return products.findById(id).orElseThrow(() -> new ProductNotFoundException(id));
    }
}
