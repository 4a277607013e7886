package dev.orderpipeline.api.order;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link CreateOrderRequest} names one product ({@code productId} and {@code quantity}) or lists {@code lines}
 * (at least one, at most {@code orderpipeline.orders.max-lines}, quantities that still fit an integer once the
 * lines of one product are added up), never both. Each broken rule is reported on the field it concerns, as bean
 * validation reports a field's own constraints.
 */
@Documented
@Constraint(validatedBy = OrderShapeValidator.class)
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface OrderShape {

    String message() default "must name one product or list lines";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
