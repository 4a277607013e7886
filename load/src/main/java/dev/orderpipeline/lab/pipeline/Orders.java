package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.lab.measure.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

/** The untimed preparation of a run: one order (or cart) per buyer, created a few at a time over all API replicas. */
public final class Orders {

    /** Enough to make preparing quick without turning it into a load test of its own. */
    static final int CONCURRENCY = 16;

    private Orders() {}

    /** User ids for {@code count} buyers, fresh for each run. */
    public static List<String> buyers(int count) {
        var tag = UUID.randomUUID().toString().substring(0, 8);
        return IntStream.range(0, count)
                .mapToObj(buyer -> "lab-" + tag + "-" + buyer)
                .toList();
    }

    /** Creates an order of {@code quantity} for each user, in the users' order; fails on the first error. */
    public static List<UUID> create(
            List<ApiClient> apis, UUID productId, List<String> users, int quantity, Progress progress) {
        return place(
                apis, users.size(), (api, index) -> api.createOrder(users.get(index), productId, quantity), progress);
    }

    /**
     * Places {@code count} orders, spread over the replicas, and returns their ids in index order; {@code placement}
     * places one (or a cart) by its index in the run, on the replica it was given.
     */
    public static List<UUID> place(
            List<ApiClient> apis, int count, BiFunction<ApiClient, Integer, UUID> placement, Progress progress) {
        var permits = new Semaphore(CONCURRENCY);
        var futures = new ArrayList<Future<UUID>>();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var index = 0; index < count; index++) {
                var api = apis.get(index % apis.size());
                var placed = index;
                futures.add(executor.submit(() -> {
                    permits.acquire();
                    try {
                        return placement.apply(api, placed);
                    } finally {
                        permits.release();
                        progress.advance();
                    }
                }));
            }
            var orders = new ArrayList<UUID>();
            for (var future : futures) {
                orders.add(future.get());
            }
            return orders;
        } catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("creating orders failed", ex.getCause());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating orders", ex);
        }
    }
}
