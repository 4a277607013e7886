package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ApiClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.stream.IntStream;

/**
 * The carts of a chaos load: which of the prepared orders are carts, which of the hot products each holds (two or
 * three, one unit each, in an order drawn for each cart, so that carts lock the same products in every order), and
 * their creation through the API ({@code POST /api/orders} with lines), as a buyer places one.
 */
final class CartOrders {

    /** As many at once as the preparation of single-product orders. */
    private static final int CONCURRENCY = 16;

    private CartOrders() {}

    /** Whether order {@code index} of the load is a cart: spread evenly, {@code share} of them in all. */
    static boolean isCart(int index, double share) {
        return Math.floor((index + 1) * share) > Math.floor(index * share);
    }

    /** A cart's products by index, in line order: two of them, or three when there are three or more. */
    static List<Integer> lines(Random random, int products) {
        if (products < 2) {
            throw new IllegalArgumentException("a cart needs two products, the run has " + products);
        }
        var size = products >= 3 ? 2 + random.nextInt(2) : 2;
        var all = new ArrayList<>(IntStream.range(0, products).boxed().toList());
        Collections.shuffle(all, random);
        return List.copyOf(all.subList(0, size));
    }

    /**
     * Creates the carts, a few at a time over the API replicas, in the order given; fails on the first error.
     *
     * @param carts each cart's products by index in {@code products}, in line order
     */
    static List<PreparedOrder> create(
            List<ApiClient> apis,
            List<UUID> products,
            List<List<Integer>> carts,
            String userPrefix,
            Progress progress) {
        var permits = new Semaphore(CONCURRENCY);
        var futures = new ArrayList<Future<PreparedOrder>>();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var index = 0; index < carts.size(); index++) {
                var api = apis.get(index % apis.size());
                var user = userPrefix + index;
                var lines = carts.get(index);
                futures.add(executor.submit(() -> {
                    permits.acquire();
                    try {
                        var units = new LinkedHashMap<UUID, Integer>();
                        lines.forEach(product -> units.put(products.get(product), 1));
                        return PreparedOrder.cart(api.createCart(user, units), user, lines);
                    } finally {
                        permits.release();
                        progress.advance();
                    }
                }));
            }
            var created = new ArrayList<PreparedOrder>();
            for (var future : futures) {
                created.add(future.get());
            }
            return created;
        } catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("creating carts failed", ex.getCause());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating carts", ex);
        }
    }
}
