package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * Requests of this instance waiting for the worker's decision on an order. A waiter is registered before its
 * command is published, so a result that comes back quickly still finds it; results for orders nobody here waits
 * for are dropped.
 */
@Component
final class CheckoutWaiters {

    // the sets are only touched inside the map's per-key atomic operations
    private final ConcurrentHashMap<UUID, Set<Waiter>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();

    CheckoutWaiters(MeterRegistry meters) {
        Gauge.builder("checkout.waiters", count, AtomicInteger::get)
                .description("Checkout requests waiting for the worker's decision")
                .register(meters);
    }

    Waiter register(UUID orderId) {
        var waiter = new Waiter(orderId);
        waiting.compute(orderId, (id, waiters) -> {
            var set = waiters == null ? new HashSet<Waiter>() : waiters;
            set.add(waiter);
            return set;
        });
        count.incrementAndGet();
        return waiter;
    }

    /** Wakes every request waiting for this result's order. */
    void complete(CheckoutResult result) {
        var waiters = waiting.remove(result.orderId());
        if (waiters != null) {
            waiters.forEach(waiter -> waiter.result.complete(result));
        }
    }

    int waiting() {
        return count.get();
    }

    private void remove(Waiter waiter) {
        waiting.computeIfPresent(waiter.orderId, (id, waiters) -> {
            waiters.remove(waiter);
            return waiters.isEmpty() ? null : waiters;
        });
    }

    /** One request's wait; close it when done, whether or not the result came. */
    final class Waiter implements AutoCloseable {

        private final UUID orderId;
        private final CompletableFuture<CheckoutResult> result = new CompletableFuture<>();
        private boolean closed;

        private Waiter(UUID orderId) {
            this.orderId = orderId;
        }

        /** The result, or empty if it did not come within {@code timeout} (or the request was interrupted). */
        Optional<CheckoutResult> await(Duration timeout) {
            try {
                return Optional.of(result.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException ex) {
                return Optional.empty();
            } catch (InterruptedException ex) {
                // the request is being torn down; answer with what the database says and keep the flag for the caller
                Thread.currentThread().interrupt();
                return Optional.empty();
            } catch (ExecutionException ex) {
                throw new IllegalStateException("a checkout waiter is never completed exceptionally", ex);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                remove(this);
                count.decrementAndGet();
            }
        }
    }
}
