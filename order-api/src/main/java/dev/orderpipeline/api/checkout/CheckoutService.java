package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderNotFoundException;
import dev.orderpipeline.api.order.OrderRepository;
import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.DatabaseUnavailableException;
import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.contract.CheckoutCommand;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.TypeMismatchDataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

/**
 * The checkout: hands the order to the worker as a {@link CheckoutCommand} keyed by its product, so that one
 * consumer applies each product's checkouts one after the other. The API changes nothing in the database: the
 * worker decides, and a failed publish leaves the order CREATED. Checking out a CREATED order again publishes the
 * same command id, which the worker applies once.
 */
@Service
final class CheckoutService {

    private static final Logger log = LoggerFactory.getLogger(CheckoutService.class);

    private final OrderRepository orders;
    private final CheckoutCommandPublisher publisher;
    private final CheckoutWaiters waiters;
    private final MeterRegistry meters;
    private final CheckoutProperties properties;
    private final Clock clock = Clock.systemUTC();

    CheckoutService(
            OrderRepository orders,
            CheckoutCommandPublisher publisher,
            CheckoutWaiters waiters,
            MeterRegistry meters,
            CheckoutProperties properties) {
        this.orders = orders;
        this.publisher = publisher;
        this.waiters = waiters;
        this.meters = meters;
        this.properties = properties;
    }

    /**
     * Checks out one of the caller's orders.
     *
     * @param wait how long the client prefers to wait for the decision ({@code Prefer: wait}, already capped), or
     *     {@code null} to answer once the broker has the command
     */
    CheckoutReply checkout(UUID orderId, Caller caller, @Nullable Duration wait) {
        var started = System.nanoTime();
        var outcome = "error";
        try {
            var reply = publish(loadCheckoutable(orderId, caller), wait);
            outcome = reply.outcome();
            return reply;
        } catch (ProblemException ex) {
            outcome = switch (ex.kind().status()) {
                case NOT_FOUND -> "not_found";
                case CONFLICT -> "conflict";
                case SERVICE_UNAVAILABLE -> "unavailable";
                default -> "error";
            };
            throw ex;
        } catch (DataAccessException | TransactionException ex) {
            if (isBug(ex)) {
                throw ex;
            }
            outcome = "unavailable";
            log.warn("Checkout of order {} failed in the database", orderId, ex);
            throw new DatabaseUnavailableException(
                            "The database failed during the checkout of order " + orderId, properties.retryAfter(), ex)
                    .with("orderId", orderId);
        } finally {
            Timer.builder("checkout.requests")
                    .description("Checkout requests by outcome, from the order lookup to the answer")
                    .tag("outcome", outcome)
                    .publishPercentileHistogram()
                    .register(meters)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The caller's order, if it can be checked out. A fast refusal, not a guard: the worker's statements guard
     * "the order is CREATED" themselves.
     */
    private Order loadCheckoutable(UUID orderId, Caller caller) {
        var order = orders.findOwned(orderId, caller.userId()).orElseThrow(() -> new OrderNotFoundException(orderId));
        if (order.status() != OrderStatus.CREATED) {
            throw new OrderNotCheckoutableException(order.id(), order.status());
        }
        return order;
    }

    private CheckoutReply publish(Order order, @Nullable Duration wait) {
        var command =
                CheckoutCommand.of(order.id(), order.productId(), order.userId(), order.quantity(), clock.instant());
        if (wait == null) {
            publisher.publish(command);
            return new CheckoutReply.Accepted(order.id(), command.commandId(), order.status(), null);
        }
        // registered before publishing: the result can arrive before send() returns
        try (var waiter = waiters.register(order.id())) {
            publisher.publish(command);
            var result = waiter.await(wait);
            log.debug(
                    "Order {}: {} after waiting up to {}",
                    order.id(),
                    result.isPresent() ? "decided" : "no result",
                    wait);
            return current(order, command, wait);
        }
    }

    /** One read of the order, whether the result came or the wait ran out: the database is the truth. */
    private CheckoutReply current(Order order, CheckoutCommand command, Duration wait) {
        var current = orders.findById(order.id())
                .orElseThrow(() -> new IllegalStateException("order " + order.id() + " vanished during checkout"));
        return current.status().isFinal()
                ? new CheckoutReply.Decided(current, wait)
                : new CheckoutReply.Accepted(current.id(), command.commandId(), current.status(), wait);
    }

    /** Failures that say our SQL or our use of the API is wrong: a 500, not the database's fault. */
    private static boolean isBug(RuntimeException ex) {
        return ex instanceof InvalidDataAccessResourceUsageException
                || ex instanceof InvalidDataAccessApiUsageException
                || ex instanceof IncorrectResultSizeDataAccessException
                || ex instanceof TypeMismatchDataAccessException;
    }
}
