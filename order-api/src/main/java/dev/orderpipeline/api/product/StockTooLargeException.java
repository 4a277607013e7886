package dev.orderpipeline.api.product;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.List;
import java.util.Map;

/** A restock that would take the stock beyond what the stock column holds; answered as an invalid {@code units}. */
final class StockTooLargeException extends ProblemException {

    StockTooLargeException(Product product, int units) {
        super(
                ProblemKind.VALIDATION_FAILED,
                "1 field is invalid: units (" + product.stock() + " + " + units + " is more than the largest stock, "
                        + Integer.MAX_VALUE + ")");
        property(
                "errors",
                List.of(Map.of("field", "units", "message", "plus the stock must be at most " + Integer.MAX_VALUE)));
        property("productId", product.id());
    }
}
