package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Requests of this instance waiting for the worker's decision on an order. A waiter is registered before its
 * command is published, so a result that comes back quickly still finds it; results for orders nobody here waits
 * for are dropped.
 *
 * <p>A wait holds no thread: it is a future that the results listener completes, or the JDK's delay scheduler ends
 * when the wait runs out. An order's event stream waits the same way ({@link #registerStream}). Waits are bounded ({@link CheckoutProperties#maxWaiters()}): beyond the bound a checkout
 * answers at once, as if no wait had been asked. When the application stops, every wait ends at once with no result,
 * so graceful shutdown does not sit out the waits.
 */
@Component
final class CheckoutWaiters implements SmartLifecycle {

    // the sets are only touched inside the map's per-key atomic operations
    private final ConcurrentHashMap<UUID, Set<Waiter>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean();
    private final int maxWaiters;
    private final Counter refused;

    CheckoutWaiters(MeterRegistry meters, CheckoutProperties properties) {
        this.maxWaiters = properties.maxWaiters();
        Gauge.builder("checkout.waiters", count, AtomicInteger::get)
                .description("Checkout requests waiting for the worker's decision")
                .register(meters);
        this.refused = Counter.builder("checkout.waiters.refused")
                .description("Checkouts that asked to wait and were answered at once: too many waits already, or"
                        + " the application stopping")
                .register(meters);
    }

    /**
     * A wait for the order's result, or empty when {@link CheckoutProperties#maxWaiters()} requests already wait (or
     * the application is stopping): the caller then answers without waiting.
     */
    Optional<Waiter> tryRegister(UUID orderId) {
        if (!running.get()) {
            refused.increment();
            return Optional.empty();
        }
        if (count.incrementAndGet() > maxWaiters) {
            count.decrementAndGet();
            refused.increment();
            return Optional.empty();
        }
        var waiter = new Waiter(orderId, true);
        add(waiter);
        return Optional.of(waiter);
    }

    /**
     * A wait for the order's result that does not count against {@link CheckoutProperties#maxWaiters()}: an order's
     * event stream, which has a bound of its own. Empty only while the application is stopping.
     */
    Optional<Waiter> registerStream(UUID orderId) {
        if (!running.get()) {
            return Optional.empty();
        }
        var waiter = new Waiter(orderId, false);
        add(waiter);
        return Optional.of(waiter);
    }

    private void add(Waiter waiter) {
        waiting.compute(waiter.orderId, (id, waiters) -> {
            var set = waiters == null ? new HashSet<Waiter>() : waiters;
            set.add(waiter);
            return set;
        });
    }

    /** Wakes every request waiting for this result's order. */
    void complete(CheckoutResult result) {
        var waiters = waiting.remove(result.orderId());
        if (waiters != null) {
            waiters.forEach(waiter -> waiter.result.complete(Optional.of(result)));
        }
    }

    /** Whether a request here waits for the order's result. */
    boolean awaits(UUID orderId) {
        return waiting.containsKey(orderId);
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

    @Override
    public void start() {
        running.set(true);
    }

    /** Ends every wait with no result: the waiting requests answer 202 and the server can drain. */
    @Override
    public void stop() {
        running.set(false);
        for (var orderId : waiting.keySet()) {
            var waiters = waiting.remove(orderId);
            if (waiters != null) {
                waiters.forEach(waiter -> waiter.result.complete(Optional.empty()));
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running.get();
    }

    /** One request's wait; closed once the request is answered, whether or not the result came. */
    final class Waiter implements AutoCloseable {

        private final UUID orderId;
        private final CompletableFuture<Optional<CheckoutResult>> result = new CompletableFuture<>();
        private final AtomicBoolean closed = new AtomicBoolean();
        private final boolean counted;

        private Waiter(UUID orderId, boolean counted) {
            this.orderId = orderId;
            this.counted = counted;
        }

        /**
         * The result, or empty once {@code timeout} has passed (or the wait was closed or the application stops).
         * Completes on the thread that delivers the result or ends the wait: callers must not block in what they
         * chain to it.
         */
        CompletableFuture<Optional<CheckoutResult>> result(Duration timeout) {
            return result.completeOnTimeout(Optional.empty(), timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                result.complete(Optional.empty());
                remove(this);
                if (counted) {
                    count.decrementAndGet();
                }
            }
        }
    }
}
