package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The order's amount at its product's price (price times quantity) is more than a payment can record. Answered as a
 * validation failure of {@code quantity}, in the shape bean validation gives one, because that is the number the
 * client chose.
 */
final class OrderAmountTooLargeException extends ProblemException {

    OrderAmountTooLargeException(NewOrder order, BigDecimal unitPrice) {
        super(
                ProblemKind.VALIDATION_FAILED,
                "1 field is invalid: quantity (" + order.quantity() + " x " + unitPrice.toPlainString()
                        + " is more than the largest payment, " + NewOrder.MAX_AMOUNT.toPlainString() + ")");
        property(
                "errors",
                List.of(Map.of(
                        "field",
                        "quantity",
                        "message",
                        "times the product's price must be at most " + NewOrder.MAX_AMOUNT.toPlainString())));
        property("productId", order.productId());
    }
}
