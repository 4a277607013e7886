package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.List;

/**
 * One carts compare: every strategy gets a fresh set of products and a burst of carts on them.
 *
 * @param products hot products per run
 * @param parallel buyers, each with a cart of its own, whose checkouts are released together
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
        Require.check(products >= 2, "a cart needs at least 2 products: " + products);
        Require.check(lines >= 2 && lines <= products, "lines must be 2 to products (" + products + "): " + lines);
        Require.notNegative("initial stock", initialStock);
        Require.positive("parallel", parallel);
        Require.positive("quantity", quantity);
        strategies = List.copyOf(strategies);
        Require.notEmpty("strategy", strategies);
        Require.positive("final timeout", finalTimeout);
        Require.notNegative("warm-up", warmup);
    }
}
