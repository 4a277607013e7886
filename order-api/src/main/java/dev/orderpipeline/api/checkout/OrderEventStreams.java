package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderNotFoundException;
import dev.orderpipeline.api.order.OrderRepository;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Orders' live status as server-sent events: the order as it is now ({@value #ORDER}), then its decision when the
 * worker's result comes ({@value #DECIDED}), and the stream ends. Fed by the results listener, as {@code Prefer: wait}
 * is ({@link CheckoutWaiters}), and registered there before the order is read: a decision committed before the read
 * is in the read, one committed after it comes as a result, so none is missed.
 *
 * <p>A stream holds no thread while it waits: it is an asynchronous request and a future the listener completes; a
 * virtual thread reads the decided order and sends it. Streams are bounded ({@link
 * CheckoutEventsProperties#maxStreams()}, beyond it 503 {@code overloaded}) and live at most {@link
 * CheckoutEventsProperties#maxLifetime()}, after which the client reconnects. A stream without news gets a comment
 * line every {@link CheckoutEventsProperties#heartbeat()}: it keeps proxies from closing a silent connection and finds
 * a client that went away, whose stream then ends at once.
 */
@Component
final class OrderEventStreams {

    static final String ORDER = "order";
    static final String DECIDED = "decided";

    private static final Logger log = LoggerFactory.getLogger(OrderEventStreams.class);

    /** How long the request outlives the stream's own end, so that the end is always the stream's. */
    private static final Duration ASYNC_MARGIN = Duration.ofSeconds(5);

    private final OrderRepository orders;
    private final CheckoutWaiters waiters;
    private final CheckoutEventsProperties properties;
    private final CheckoutProperties checkout;
    private final AtomicInteger open = new AtomicInteger();
    private final Counter refused;

    /** Where a decided order is read and sent: a virtual thread per decision, none per waiting stream. */
    private final ExecutorService decisions = Executors.newVirtualThreadPerTaskExecutor();

    /** When heartbeats are due: one thread for every stream, which hands each write to a virtual thread. */
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("order-events-heartbeat").daemon().factory());

    OrderEventStreams(
            OrderRepository orders,
            CheckoutWaiters waiters,
            CheckoutEventsProperties properties,
            CheckoutProperties checkout,
            MeterRegistry meters) {
        this.orders = orders;
        this.waiters = waiters;
        this.properties = properties;
        this.checkout = checkout;
        Gauge.builder("checkout.events.streams", open, AtomicInteger::get)
                .description("Orders' event streams open now")
                .register(meters);
        this.refused = Counter.builder("checkout.events.refused")
                .description("Event streams refused with 503: orderpipeline.checkout.events.max-streams were open")
                .register(meters);
    }

    /** The streams open now. */
    int open() {
        return open.get();
    }

    @PreDestroy
    void stopDecisions() {
        heartbeats.shutdownNow();
        decisions.shutdownNow();
    }

    /** Opens the stream of one of the caller's orders; refused when too many are open or the order is not theirs. */
    SseEmitter open(UUID orderId, Caller caller) {
        if (open.incrementAndGet() > properties.maxStreams()) {
            open.decrementAndGet();
            refused.increment();
            throw new TooManyStreamsException(properties.maxStreams(), checkout.retryAfter());
        }
        // before the read: a decision committed after it comes to this waiter
        var waiter = waiters.registerStream(orderId);
        if (waiter.isEmpty()) {
            open.decrementAndGet();
            refused.increment();
            throw new TooManyStreamsException(properties.maxStreams(), checkout.retryAfter());
        }
        var stream = new Stream(waiter.get());
        try {
            var order =
                    orders.findOwned(orderId, caller.userId()).orElseThrow(() -> new OrderNotFoundException(orderId));
            stream.send(ORDER, order);
            if (order.status().isFinal()) {
                stream.send(DECIDED, order);
                stream.end();
                return stream.emitter;
            }
            stream.startHeartbeat();
            waiter.get()
                    .result(properties.maxLifetime())
                    .thenAcceptAsync(result -> decided(stream, orderId, result), decisions)
                    .whenComplete((sent, failure) -> {
                        if (failure != null) {
                            log.debug("Event stream of order {} ends on a failure", orderId, failure);
                            stream.end();
                        }
                    });
            return stream.emitter;
        } catch (RuntimeException ex) {
            stream.release();
            throw ex;
        }
    }

    /**
     * Sends the decision and ends the stream; without a result (the lifetime ran out, the application stops) it only
     * ends it, and the client reconnects. The order is read from the database, which the result follows.
     */
    private void decided(Stream stream, UUID orderId, Optional<CheckoutResult> result) {
        result.flatMap(decision -> orders.findById(orderId))
                .filter(read -> read.status().isFinal())
                .ifPresent(order -> stream.send(DECIDED, order));
        stream.end();
    }

    /**
     * One open stream: its emitter, its wait and its place among the open ones, given back once whichever way it
     * ends. The emitter's own callbacks cover the ends the server does not make (the client gone, the request timed
     * out); they are not called for a stream completed before Spring took the emitter over, so every end made here
     * gives the place back itself.
     */
    private final class Stream {

        private final SseEmitter emitter =
                new SseEmitter(properties.maxLifetime().plus(ASYNC_MARGIN).toMillis());
        private final CheckoutWaiters.Waiter waiter;
        private final AtomicBoolean released = new AtomicBoolean();
        private volatile @Nullable ScheduledFuture<?> heartbeat;

        private Stream(CheckoutWaiters.Waiter waiter) {
            this.waiter = waiter;
            emitter.onCompletion(this::release);
            emitter.onTimeout(this::end);
            emitter.onError(failure -> release());
        }

        void send(String name, Order order) {
            OrderEventStreams.this.send(emitter, name, order);
        }

        void startHeartbeat() {
            var every = properties.heartbeat().toMillis();
            heartbeat = heartbeats.scheduleAtFixedRate(
                    () -> decisions.execute(this::beat), every, every, TimeUnit.MILLISECONDS);
            if (released.get()) {
                heartbeat.cancel(false);
            }
        }

        /** A comment line: nothing for the client to handle, but a write that fails when the client is gone. */
        private void beat() {
            try {
                emitter.send(SseEmitter.event().comment("heartbeat"));
            } catch (IOException | IllegalStateException ex) {
                // the client went away, or the stream ended meanwhile: either way it is over
                log.debug("Event stream: the heartbeat found the stream gone", ex);
                end();
            }
        }

        void end() {
            emitter.complete();
            release();
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                var beating = heartbeat;
                if (beating != null) {
                    beating.cancel(false);
                }
                waiter.close();
                open.decrementAndGet();
            }
        }
    }

    private void send(SseEmitter emitter, String name, Order order) {
        try {
            emitter.send(SseEmitter.event()
                    .name(name)
                    .reconnectTime(properties.reconnectDelay().toMillis())
                    .data(order, MediaType.APPLICATION_JSON));
        } catch (IOException ex) {
            // the client went away: the container completes the request, which closes the stream
            log.debug("Event stream of order {}: the client went away", order.id(), ex);
        }
    }
}
