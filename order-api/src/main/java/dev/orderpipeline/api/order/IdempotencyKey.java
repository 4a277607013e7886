package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Idempotency-Key} a client sends with {@code POST /api/orders}: 1 to {@value #MAX_LENGTH} characters among
 * {@code A-Z a-z 0-9} and {@code - . _ ~ + / = :} (a UUID, a ULID, Base64 or hex text, a prefixed counter all fit).
 * Compared exactly, case included, and only among the keys of the same user.
 */
record IdempotencyKey(String value) {

    static final String HEADER = "Idempotency-Key";

    static final int MAX_LENGTH = 255;

    /** The rule above, as the API description states it. */
    static final String PATTERN = "^[A-Za-z0-9._~+/=:-]{1," + MAX_LENGTH + "}$";

    IdempotencyKey {
        var wrong = wrong(value);
        if (wrong != null) {
            throw new IllegalArgumentException(wrong);
        }
    }

    /**
     * The key of the header's value, or a validation problem that names the header. A request with the header twice
     * arrives here comma-joined, which no key contains, so it is refused too.
     */
    static IdempotencyKey parse(String header) {
        var wrong = wrong(header);
        if (wrong != null) {
            throw new InvalidIdempotencyKeyException(wrong);
        }
        return new IdempotencyKey(header);
    }

    /** What is wrong with the text as a key, or null when it is one. */
    private static @Nullable String wrong(String value) {
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            return "must have 1 to " + MAX_LENGTH + " characters";
        }
        for (var i = 0; i < value.length(); i++) {
            if (!allowed(value.charAt(i))) {
                return "must have letters, digits and - . _ ~ + / = : only";
            }
        }
        return null;
    }

    private static boolean allowed(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || "-._~+/=:".indexOf(c) >= 0;
    }

    @Override
    public String toString() {
        return value;
    }

    /** A header that is not a key: reported as bean validation reports a field. */
    static final class InvalidIdempotencyKeyException extends ProblemException {

        InvalidIdempotencyKeyException(String message) {
            super(ProblemKind.VALIDATION_FAILED, "1 field is invalid: " + HEADER);
            property("errors", List.of(Map.of("field", HEADER, "message", message)));
        }
    }
}
