package dev.orderpipeline.worker.checkout;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Why a record cannot be applied, as handed to the dead-letter recoverer: its message becomes the reason header and,
 * with its cause, spring-kafka's exception headers.
 */
final class PoisonCommandException extends RuntimeException {

    private static final int MAX_DESCRIPTION_LENGTH = 300;

    /** Room for any reason the worker gives; what the record carried (a huge header, say) is cut to it. */
    private static final int MAX_REASON_LENGTH = 1000;

    PoisonCommandException(String reason, @Nullable Throwable cause) {
        super(shortened(reason, MAX_REASON_LENGTH), cause);
    }

    /** A failure in one short line, for a reason header: the first line of its message. */
    static String describe(Throwable failure) {
        var message = Objects.requireNonNullElse(
                failure.getMessage(), failure.getClass().getName());
        var firstLine = message.lines().findFirst().orElse(message);
        return shortened(firstLine, MAX_DESCRIPTION_LENGTH);
    }

    private static String shortened(String text, int maxLength) {
        return text.length() <= maxLength ? text : text.substring(0, maxLength) + "...";
    }
}
