package dev.orderpipeline.api.web;

import java.util.Objects;
import java.util.Optional;

/**
 * Who is calling. Controllers take it as a parameter and never read credentials themselves; {@link
 * CallerArgumentResolver} is the one place that decides.
 *
 * @param userId the caller's user id, as stored in {@code orders.user_id}
 */
public record Caller(String userId) {

    /** Longest user id accepted. */
    public static final int MAX_USER_ID_LENGTH = 200;

    public Caller {
        Objects.requireNonNull(userId, "userId");
        whyNotAUserId(userId).ifPresent(reason -> {
            throw new IllegalArgumentException("userId " + reason);
        });
    }

    /**
     * Why {@code candidate} cannot be a user id, or empty when it can. A user id is stored, compared and logged as
     * it is, so it must be plain text (a NUL cannot even be stored in a {@code text} column, and other control
     * characters would forge log lines) of a bounded length, without surrounding whitespace that would make two ids
     * look alike.
     */
    public static Optional<String> whyNotAUserId(String candidate) {
        if (candidate.isBlank()) {
            return Optional.of("is blank");
        }
        if (candidate.length() > MAX_USER_ID_LENGTH) {
            return Optional.of("is longer than " + MAX_USER_ID_LENGTH + " characters");
        }
        if (!PlainTextValidator.isPlainText(candidate)) {
            return Optional.of("contains control characters or unpaired surrogates");
        }
        if (!candidate.equals(candidate.strip())) {
            return Optional.of("has surrounding whitespace");
        }
        return Optional.empty();
    }
}
