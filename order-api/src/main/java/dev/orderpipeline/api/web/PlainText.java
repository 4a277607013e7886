package dev.orderpipeline.api.web;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Text that a person reads: no control characters (C0, DEL, C1; NUL among them, which PostgreSQL cannot store in a
 * {@code text} column) and no unpaired surrogates (which are not text, and reach the database as {@code ?}).
 * {@code null} is valid; combine with {@code @NotBlank} or {@code @NotNull}.
 */
@Documented
@Constraint(validatedBy = PlainTextValidator.class)
@Target({
    ElementType.METHOD,
    ElementType.FIELD,
    ElementType.ANNOTATION_TYPE,
    ElementType.CONSTRUCTOR,
    ElementType.PARAMETER,
    ElementType.TYPE_USE
})
@Retention(RetentionPolicy.RUNTIME)
public @interface PlainText {

    String message() default "must not contain control characters or unpaired surrogates";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
