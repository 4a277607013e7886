package dev.orderpipeline.api.web;

import java.util.Objects;

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
        if (userId.isBlank()) {
            throw new IllegalArgumentException("userId must not be blank");
        }
        if (userId.length() > MAX_USER_ID_LENGTH) {
            throw new IllegalArgumentException("userId must be at most " + MAX_USER_ID_LENGTH + " characters");
        }
    }
}
