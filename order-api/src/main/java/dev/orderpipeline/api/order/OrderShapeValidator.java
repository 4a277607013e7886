package dev.orderpipeline.api.order;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.HashMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Checks {@link OrderShape}; made by Spring's validator factory, which hands it the configured line limit. */
final class OrderShapeValidator implements ConstraintValidator<OrderShape, CreateOrderRequest> {

    private final int maxLines;

    OrderShapeValidator(OrderProperties properties) {
        this.maxLines = properties.maxLines();
    }

    @Override
    public boolean isValid(@Nullable CreateOrderRequest request, ConstraintValidatorContext context) {
        if (request == null) {
            return true;
        }
        context.disableDefaultConstraintViolation();
        var lines = request.lines();
        if (lines == null) {
            var valid = true;
            if (request.productId() == null) {
                valid = violation(context, "productId", "must not be null");
            }
            if (request.quantity() == null) {
                valid = violation(context, "quantity", "must not be null");
            }
            return valid;
        }
        if (request.productId() != null || request.quantity() != null) {
            return violation(
                    context,
                    "lines",
                    "must not be given with productId or quantity: an order names one product or lists lines");
        }
        if (lines.isEmpty()) {
            return violation(context, "lines", "must not be empty");
        }
        if (lines.size() > maxLines) {
            return violation(context, "lines", "must list at most " + maxLines + " lines");
        }
        return quantitiesAddUp(lines, context);
    }

    /** Lines of one product are merged: their quantities must add up to what one line may order. */
    private static boolean quantitiesAddUp(
            Iterable<CreateOrderRequest.@Nullable LineRequest> lines, ConstraintValidatorContext context) {
        var units = new HashMap<UUID, Long>();
        for (var line : lines) {
            // a null line, product or quantity is reported by the line's own constraints
            if (line == null || line.productId() == null || line.quantity() == null) {
                continue;
            }
            var sum = units.merge(line.productId(), (long) line.quantity(), Long::sum);
            if (sum > Integer.MAX_VALUE) {
                return violation(
                        context,
                        "lines",
                        "the quantities of product " + line.productId() + " add up to more than " + Integer.MAX_VALUE);
            }
        }
        return true;
    }

    private static boolean violation(ConstraintValidatorContext context, String field, String message) {
        context.buildConstraintViolationWithTemplate(escaped(message))
                .addPropertyNode(field)
                .addConstraintViolation();
        return false;
    }

    // the message is literal text: braces and dollar signs would otherwise be read as expressions
    private static String escaped(String message) {
        return message.replace("\\", "\\\\")
                .replace("{", "\\{")
                .replace("}", "\\}")
                .replace("$", "\\$");
    }
}
