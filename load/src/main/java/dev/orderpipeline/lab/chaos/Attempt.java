package dev.orderpipeline.lab.chaos;

import java.util.Objects;

/**
 * One checkout request of the load and what came back.
 *
 * @param order index of the order in the run's order list
 * @param number 1 for the first attempt, 2 for the first retry...
 * @param sentAt seconds since the start of the load when it was sent
 * @param status the HTTP status, or {@code timeout} / {@code io-error}
 * @param soldOut a 409 of the sold-out problem: the API refused the checkout at its door and the order stays CREATED
 */
record Attempt(
        int order, int number, double sentAt, double answeredAt, String status, boolean retryAfter, boolean soldOut) {

    Attempt(int order, int number, double sentAt, double answeredAt, String status, boolean retryAfter) {
        this(order, number, sentAt, answeredAt, status, retryAfter, false);
    }

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
