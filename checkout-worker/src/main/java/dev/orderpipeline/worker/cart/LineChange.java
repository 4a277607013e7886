package dev.orderpipeline.worker.cart;

import java.util.Objects;

/**
 * A line's move from one state to the next, decided under its row lock.
 *
 * @param before the line as locked
 * @param after the line as it becomes
 */
record LineChange(Line before, Line after) {

    LineChange {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        if (!before.key().equals(after.key())) {
            throw new IllegalArgumentException("a change moves one line");
        }
    }
}
