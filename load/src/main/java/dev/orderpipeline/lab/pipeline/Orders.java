package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.lab.measure.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/** The untimed preparation of a run: one order per buyer, created a few at a time over all API replicas. */
public final class Orders {

    /** Enough to make preparing quick without turning it into a load test of its own. */
    static final int CONCURRENCY = 16;

    private Orders() {}

    /** Creates an order of {@code quantity} for each user, in the users' order; fails on the first error. */
    public static List<UUID> create(
            List<ApiClient> apis, UUID productId, List<String> users, int quantity, Progress progress) {
        var permits = new Semaphore(CONCURRENCY);
        var futures = new ArrayList<Future<UUID>>();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var index = 0; index < users.size(); index++) {
                var api = apis.get(index % apis.size());
                var user = users.get(index);
                futures.add(executor.submit(() -> {
                    permits.acquire();
                    try {
                        return api.createOrder(user, productId, quantity);
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
