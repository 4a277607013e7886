package dev.orderpipeline.lab.carts;

import java.time.Duration;
import java.util.List;

/**
 * One carts compare: every strategy gets a fresh set of products and a burst of carts on them.
 *
 * @param products hot products per run
 * @param initialStock units of each of them
 * @param parallel buyers, each with a cart of its own, whose checkouts are released together
 * @param lines products per cart
 * @param quantity units per line
 * @param strategies strategy names, in run order
 * @param finalTimeout how long to wait for every cart to become final after the checkouts were answered
 * @param warmup carts per strategy checked out before its measured run and not reported (0: none)
 */
public record CartsSettings(
        int products,
        int initialStock,
        int parallel,
        int lines,
        int quantity,
        List<String> strategies,
        Duration finalTimeout,
        int warmup) {

    public CartsSettings {
        if (products < 2) {
            throw new IllegalArgumentException("a cart needs at least 2 products: " + products);
        }
        if (lines < 2 || lines > products) {
            throw new IllegalArgumentException("lines must be 2 to products (" + products + "): " + lines);
        }
        if (initialStock < 0) {
            throw new IllegalArgumentException("initial stock must not be negative: " + initialStock);
        }
        if (parallel < 1) {
            throw new IllegalArgumentException("parallel must be positive: " + parallel);
        }
        if (quantity < 1) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        strategies = List.copyOf(strategies);
        if (strategies.isEmpty()) {
            throw new IllegalArgumentException("at least one strategy is needed");
        }
        if (!finalTimeout.isPositive()) {
            throw new IllegalArgumentException("final timeout must be positive: " + finalTimeout);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("warm-up must not be negative: " + warmup);
        }
    }
}
