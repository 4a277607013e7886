package dev.orderpipeline.api.lab;

import dev.orderpipeline.api.checkout.CheckoutProperties;
import dev.orderpipeline.api.product.ProductNotFoundException;
import dev.orderpipeline.api.web.DatabaseUnavailableException;
import dev.orderpipeline.contract.invariant.InvariantChecker;
import jakarta.validation.constraints.Min;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
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
    @GetMapping("/api/lab/products/{id}/invariants")
    InvariantView invariants(@PathVariable UUID id, @RequestParam @Min(0) int initialStock) {
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
