package dev.orderpipeline.lab.carts;

import org.jspecify.annotations.Nullable;

/**
 * What the lab saw of one cart's checkout, in {@link System#nanoTime()}.
 *
 * @param answeredAt when the HTTP answer came
 * @param status the answer's status code, or {@code timeout} / {@code io-error}
 * @param decidedAt when the lab learnt the cart's decision (the answer itself for a strategy that decides in the
 *     request, the result on {@code checkout.results} or the database for the saga); {@code null} if it never did
 */
record CartCheckout(
        long answeredAt, String status, @Nullable Long decidedAt) {}
