package dev.orderpipeline.api.web;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import org.jspecify.annotations.Nullable;

/** Checks {@link PlainText}. */
final class PlainTextValidator implements ConstraintValidator<PlainText, CharSequence> {

    @Override
    public boolean isValid(@Nullable CharSequence value, ConstraintValidatorContext context) {
        return value == null || isPlainText(value);
    }

    /** Whether {@code text} has no control character and no unpaired surrogate. */
    static boolean isPlainText(CharSequence text) {
        return text.codePoints()
                .noneMatch(codePoint -> Character.getType(codePoint) == Character.CONTROL
                        || Character.getType(codePoint) == Character.SURROGATE);
    }
}
