package dev.orderpipeline.checkoutlab;

import static dev.orderpipeline.api.web.ProblemKind.AUTHENTICATION_REQUIRED;
import static dev.orderpipeline.api.web.ProblemKind.DATABASE_UNAVAILABLE;
import static dev.orderpipeline.api.web.ProblemKind.FORBIDDEN;
import static dev.orderpipeline.api.web.ProblemKind.INVALID_TOKEN;
import static dev.orderpipeline.api.web.ProblemKind.MALFORMED_REQUEST;
import static dev.orderpipeline.api.web.ProblemKind.PRODUCT_NOT_FOUND;
import static dev.orderpipeline.api.web.ProblemKind.VALIDATION_FAILED;

import dev.orderpipeline.api.checkout.CheckoutProperties;
import dev.orderpipeline.api.product.ProductNotFoundException;
import dev.orderpipeline.api.web.DatabaseUnavailableException;
import dev.orderpipeline.api.web.ProblemResponses;
import dev.orderpipeline.invariants.InvariantChecker;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Min;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "lab", description = "What the lab reads to judge a run")
class InvariantController {

    private static final Logger log = LoggerFactory.getLogger(InvariantController.class);

    private final InvariantChecker checker;
    private final CheckoutProperties properties;

    InvariantController(InvariantChecker checker, CheckoutProperties properties) {
        this.checker = checker;
        this.properties = properties;
    }

    /**
     * What the database says about a product after a run: oversell, drift, double and dangling payments, orders
     * not final. The database does not keep the stock a run started with, so the caller says it.
     */
    @GetMapping(path = "/api/lab/products/{id}/invariants", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "productInvariants",
            summary = "Judge a product's run by the database",
            description = "Reads the product's stock, orders and payments and derives the invariants a correct"
                    + " checkout keeps: no oversell, no drift (initial stock = stock left + quantity sold), one"
                    + " payment per completed order and none for the others, every order decided. `holds` is true"
                    + " when all of them do; `violations` says which do not.")
    @ApiResponse(
            responseCode = "200",
            description = "The invariants and the counts they derive from",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = InvariantView.class),
                            examples = {
                                @ExampleObject(name = "holds", value = LabExamples.HOLDS),
                                @ExampleObject(name = "oversold", value = LabExamples.OVERSOLD)
                            }))
    @ProblemResponses({
        VALIDATION_FAILED,
        MALFORMED_REQUEST,
        AUTHENTICATION_REQUIRED,
        INVALID_TOKEN,
        FORBIDDEN,
        PRODUCT_NOT_FOUND,
        DATABASE_UNAVAILABLE
    })
    InvariantView invariants(
            @Parameter(description = "The product's id", example = LabExamples.PRODUCT_ID) @PathVariable UUID id,
            @Parameter(
                            description = "The stock the product started the run with; the database does not keep it",
                            example = "100")
                    @RequestParam
                    @Min(0)
                    int initialStock) {
        try {
            return InvariantView.of(checker.check(id, initialStock));
        } catch (IllegalArgumentException ex) {
            // the checker's way of saying there is no such product
            throw new ProductNotFoundException(id);
        } catch (IllegalStateException ex) {
            log.warn("Could not read the invariants of product {}", id, ex);
            throw new DatabaseUnavailableException(
                            "The invariants of product " + id + " could not be read from the database",
                            properties.retryAfter(),
                            ex)
                    .with("productId", id);
        }
    }
}
