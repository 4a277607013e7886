package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.KnownOrders;
import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderNotFoundException;
import dev.orderpipeline.api.order.OrderRepository;
import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.DatabaseFailures;
import dev.orderpipeline.api.web.DatabaseUnavailableException;
import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

/**
 * The checkout: hands the order to the worker as a {@link CheckoutCommand} keyed by its product, so that one
 * consumer applies each product's checkouts one after the other; a cart as one {@link CartCheckoutCommand} keyed by
 * the order, whose coordinator reserves each line on its product's partition. The API changes nothing in the
 * database: the worker decides, and a failed publish leaves the order CREATED. Checking out a CREATED order again
 * publishes the same command id, which the worker applies once.
 */
@Service
final class CheckoutService {

    private static final Logger log = LoggerFactory.getLogger(CheckoutService.class);

    private static final int FINAL_READ_THREADS = 2;

    /** How long the answer after a wait waits for the order's read before it is a 202 without it. */
    static final Duration FINAL_READ_TIMEOUT = Duration.ofSeconds(1);

    private final OrderRepository orders;
    private final CheckoutCommandPublisher publisher;
    private final CheckoutWaiters waiters;
    private final MeterRegistry meters;
    private final CheckoutProperties properties;
    private final StockDoor door;
    private final KnownOrders known;
    private final Clock clock = Clock.systemUTC();

    /**
     * Where a wait that ran out reads the order once more (the worker may have decided it and died before publishing
     * its result). A few threads, and a queue no longer than the waits it serves: beyond it the answer is the 202
     * without that read.
     */
    private final ThreadPoolExecutor finalReads;

    CheckoutService(
            OrderRepository orders,
            CheckoutCommandPublisher publisher,
            CheckoutWaiters waiters,
            MeterRegistry meters,
            CheckoutProperties properties,
            StockDoor door,
            KnownOrders known) {
        this.door = door;
        this.known = known;
        this.orders = orders;
        this.publisher = publisher;
        this.waiters = waiters;
        this.meters = meters;
        this.properties = properties;
        this.finalReads = new ThreadPoolExecutor(
                FINAL_READ_THREADS,
                FINAL_READ_THREADS,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(Math.max(1, properties.maxWaiters())),
                Thread.ofPlatform().name("checkout-final-read-", 0).daemon().factory());
        this.finalReads.allowCoreThreadTimeOut(true);
    }

    @PreDestroy
    void stopFinalReads() {
        finalReads.shutdownNow();
    }

    /** Checks out one of the caller's orders: answers once the broker has the command. */
    CheckoutReply checkout(UUID orderId, Caller caller) {
        var started = System.nanoTime();
        var outcome = "error";
        try {
            var order = loadCheckoutable(orderId, caller);
            var commandId = publish(order);
            var reply = accepted(order, commandId, null);
            outcome = reply.outcome();
            return reply;
        } catch (RuntimeException ex) {
            outcome = outcomeOf(ex);
            throw translated(orderId, ex);
        } finally {
            record(started, outcome);
        }
    }

    /**
     * Checks out one of the caller's orders and waits up to {@code wait} for the worker's decision, without holding
     * the calling thread: the returned reply completes when the result comes or the wait runs out. Refusals and
     * publish failures are thrown before anything waits.
     */
    PendingCheckout checkoutAndWait(UUID orderId, Caller caller, Duration wait) {
        var started = System.nanoTime();
        try {
            var order = loadCheckoutable(orderId, caller);
            // registered before publishing: the result can arrive before send() returns
            var waiter = waiters.tryRegister(order.id());
            UUID commandId;
            try {
                commandId = publish(order);
            } catch (RuntimeException ex) {
                waiter.ifPresent(CheckoutWaiters.Waiter::close);
                throw ex;
            }
            var acknowledged = accepted(order, commandId, waiter.isPresent() ? wait : null);
            if (waiter.isEmpty()) {
                log.debug("Order {}: too many waiting checkouts, answering without waiting", order.id());
                record(started, acknowledged.outcome());
                return new PendingCheckout(CompletableFuture.completedFuture(acknowledged), () -> {}, acknowledged);
            }
            var reply = waiter.get()
                    .result(wait)
                    // a cart's result says nothing of its lines: the answer reads them, as after a wait in vain
                    .thenCompose(result -> result.filter(decision -> order.productId() != null)
                            .map(decision -> CompletableFuture.completedFuture(decided(order, decision, wait)))
                            .orElseGet(() -> readAgain(order, commandId, wait)))
                    .thenApply(decided -> {
                        record(started, decided.outcome());
                        return decided;
                    });
            return new PendingCheckout(reply, waiter.get()::close, acknowledged);
        } catch (RuntimeException ex) {
            record(started, outcomeOf(ex));
            throw translated(orderId, ex);
        }
    }

    /**
     * A checkout whose answer is on its way. The broker has its command: whatever happens to the wait, the answer is
     * at least {@code acknowledged}.
     *
     * @param reply completes with the reply, on the thread that delivered the result or ended the wait
     * @param cancel ends the wait early (the client went away, or the server gives up on the request)
     * @param acknowledged the 202 to answer when the reply cannot come (it failed, or the request timed out)
     */
    record PendingCheckout(
            CompletableFuture<CheckoutReply> reply, Runnable cancel, CheckoutReply.Accepted acknowledged) {}

    /**
     * The caller's order, if it can be checked out. Fast refusals, not guards: the worker's statements guard "the
     * order is CREATED" and the stock themselves. A single-product order of a product known sold out is refused
     * here, before its order is read when this instance knows what the order asks ({@link KnownOrders}: a flash
     * sale's refusals then cost no database read); a cart goes to its saga whatever the stock of its products.
     */
    private Order loadCheckoutable(UUID orderId, Caller caller) {
        var asks = known.find(orderId, caller.userId());
        if (asks.isPresent()) {
            refuseSoldOut(orderId, asks.get().productId(), asks.get().quantity());
        }
        var order = orders.findOwned(orderId, caller.userId()).orElseThrow(() -> new OrderNotFoundException(orderId));
        if (order.status() != OrderStatus.CREATED) {
            known.forget(order.id());
            throw new OrderNotCheckoutableException(order.id(), order.status());
        }
        var lines = order.lines();
        if (lines.size() == 1) {
            // the door is asked once per checkout: when it lets a stale "sold out" through, that one checkout goes on
            if (asks.isEmpty()) {
                var line = lines.getFirst();
                refuseSoldOut(order.id(), line.productId(), line.quantity());
            }
            known.remember(order);
        }
        return order;
    }

    private void refuseSoldOut(UUID orderId, UUID productId, int quantity) {
        var available = door.refused(productId, quantity);
        if (available != null) {
            throw new SoldOutException(orderId, productId, available);
        }
    }

    /**
     * Publishes the order's checkout command: keyed by its product for a single-product order, as ever; keyed by the
     * order for a cart, whose saga one coordinator owns. Either way the command id is the order's one checkout
     * command id.
     */
    private UUID publish(Order order) {
        var lines = order.lines();
        if (lines.size() == 1) {
            var line = lines.getFirst();
            var command =
                    CheckoutCommand.of(order.id(), line.productId(), order.userId(), line.quantity(), clock.instant());
            publisher.publish(command);
            return command.commandId();
        }
        var cartLines = lines.stream()
                .map(line -> new CartLine(line.lineNo(), line.productId(), line.quantity()))
                .toList();
        var command = CartCheckoutCommand.of(order.id(), order.userId(), cartLines, clock.instant());
        publisher.publish(command);
        return command.commandId();
    }

    /**
     * The order as the database has it after a wait without a result, or after a cart's result: decided (its result
     * was lost, or is still on its way; a cart's lines as decided) or still accepted. Off the thread that ended the
     * wait or delivered the result. The broker has the command by now, so a read that cannot run, fails or takes
     * longer than {@link #FINAL_READ_TIMEOUT} answers 202 (the read itself goes on, bounded by the database's own
     * timeouts, and its result is dropped): never an error that a client could take for a checkout not taken.
     */
    private CompletableFuture<CheckoutReply> readAgain(Order order, UUID commandId, Duration wait) {
        var acknowledged = accepted(order, commandId, wait);
        try {
            return CompletableFuture.supplyAsync(() -> current(order, commandId, wait), finalReads)
                    .exceptionally(failure -> {
                        log.debug("Order {}: could not read it after the wait; answering 202", order.id(), failure);
                        return acknowledged;
                    })
                    .completeOnTimeout(acknowledged, FINAL_READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException ex) {
            return CompletableFuture.completedFuture(acknowledged);
        }
    }

    private CheckoutReply current(Order order, UUID commandId, Duration wait) {
        var current = orders.findById(order.id()).orElse(order);
        return current.status().isFinal()
                ? new CheckoutReply.Decided(current, wait)
                : new CheckoutReply.Accepted(current.id(), commandId, current.status(), wait);
    }

    private static CheckoutReply.Accepted accepted(Order order, UUID commandId, @Nullable Duration waited) {
        return new CheckoutReply.Accepted(order.id(), commandId, order.status(), waited);
    }

    /**
     * The order as the worker decided it. The result is published only after the worker's transaction committed, so
     * it says what the database says, and the answer needs no read (and no thread that could block on one).
     */
    private static CheckoutReply decided(Order order, CheckoutResult result, Duration waited) {
        var status = result.outcome() == CheckoutOutcome.COMPLETED ? OrderStatus.COMPLETED : OrderStatus.REJECTED;
        return new CheckoutReply.Decided(order.decided(status, result.rejectReason(), result.decidedAt()), waited);
    }

    private static String outcomeOf(RuntimeException ex) {
        if (ex instanceof ProblemException problem) {
            if (problem.kind() == ProblemKind.CHECKOUT_OUTCOME_UNKNOWN) {
                return "unknown";
            }
            if (problem.kind() == ProblemKind.SOLD_OUT) {
                return "sold_out";
            }
            return switch (problem.kind().status()) {
                case NOT_FOUND -> "not_found";
                case CONFLICT -> "conflict";
                case SERVICE_UNAVAILABLE -> "unavailable";
                default -> "error";
            };
        }
        return ex instanceof DataAccessException || ex instanceof TransactionException ? "unavailable" : "error";
    }

    /** A database failure answers 503 with Retry-After; problems and bugs pass as they are. */
    private RuntimeException translated(UUID orderId, RuntimeException ex) {
        if (!(ex instanceof DataAccessException || ex instanceof TransactionException)
                || DatabaseFailures.isMisuse(ex)) {
            return ex;
        }
        DatabaseFailures.logFailure(log, ex, "Checkout of order {} failed in the database", orderId);
        return new DatabaseUnavailableException(
                        "The database failed during the checkout of order " + orderId, properties.retryAfter(), ex)
                .with("orderId", orderId);
    }

    private void record(long started, String outcome) {
        Timer.builder("checkout.requests")
                .description("Checkout requests by outcome, from the order lookup to the answer")
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .register(meters)
                .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    }
}
