package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.pipeline.Strategies;
import java.util.List;

/**
 * The ways to check out a cart that the carts compare runs: the pipeline's saga (the production checkout, decided
 * by the worker after a 202) and the lab's lock-based cart strategies (decided in the request).
 */
final class CartStrategies {

    /** The production checkout of a cart: a reservation saga over the products' partitions. */
    static final String SAGA = "saga";

    /** Every product of the cart locked with {@code SELECT ... FOR UPDATE}, sorted by id: they queue, no deadlock. */
    static final String FOR_UPDATE = "cart-for-update";

    /** The same in the cart's line order: opposite orders deadlock, PostgreSQL aborts one, the lab retries it. */
    static final String FOR_UPDATE_UNSORTED = "cart-for-update-unsorted";

    static final List<String> ALL = List.of(SAGA, FOR_UPDATE, FOR_UPDATE_UNSORTED);

    private CartStrategies() {}

    static boolean isSaga(String strategy) {
        return SAGA.equals(strategy);
    }

    /** The name the API's checkout takes: the pipeline's for the saga, the lab's {@code ?strategy=} otherwise. */
    static String checkoutName(String strategy) {
        return isSaga(strategy) ? Strategies.KAFKA : strategy;
    }
}
