package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The order's amount at its products' prices (price times quantity, over every line of a cart) is more than a
 * payment can record. Answered as a validation failure of the field the client chose the amount with ({@code
 * quantity}, or a cart's {@code lines}), in the shape bean validation gives one.
 */
final class OrderAmountTooLargeException extends ProblemException {

    private OrderAmountTooLargeException(String field, String why, String message) {
        super(
                ProblemKind.VALIDATION_FAILED,
                "1 field is invalid: " + field + " (" + why + " is more than the largest payment, "
                        + NewOrder.MAX_AMOUNT.toPlainString() + ")");
        property("errors", List.of(Map.of("field", field, "message", message)));
    }

    static OrderAmountTooLargeException of(NewOrder order, BigDecimal unitPrice) {
        var problem = new OrderAmountTooLargeException(
                "quantity",
                order.quantity() + " x " + unitPrice.toPlainString(),
                "times the product's price must be at most " + NewOrder.MAX_AMOUNT.toPlainString());
        problem.property("productId", order.productId());
        return problem;
    }

    static OrderAmountTooLargeException of(NewCart cart, BigDecimal amount) {
        return new OrderAmountTooLargeException(
                "lines",
                "the cart's amount, " + amount.toPlainString() + ",",
                "quantities times their products' prices must add up to at most "
                        + NewOrder.MAX_AMOUNT.toPlainString());
    }
}
