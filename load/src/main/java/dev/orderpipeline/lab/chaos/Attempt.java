package dev.orderpipeline.lab.chaos;

import java.util.Objects;

/** One checkout request and its answer. */
record Attempt(int order, int number, double sentAt, double answeredAt, String status, boolean retryAfter) {

    Attempt {
        Objects.requireNonNull(status, "status");
        if (order < 0 || number < 1) {
            throw new IllegalArgumentException("order index must not be negative and attempt numbers start at 1");
        }
    }

    boolean accepted() {
        return "202".equals(status);
    }

    boolean unavailable() {
        return "503".equals(status);
    }
}
