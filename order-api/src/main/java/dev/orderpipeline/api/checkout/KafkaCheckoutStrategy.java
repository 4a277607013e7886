package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderRepository;
import dev.orderpipeline.contract.CheckoutCommand;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Hands the checkout to the worker as a command keyed by product, so that one consumer applies each product's
 * checkouts one after the other. The API changes nothing in the database: the worker decides, and a failed publish
 * leaves the order CREATED. Checking out a CREATED order again publishes the same command id; the worker
 * applies it once.
 */
@Component
final class KafkaCheckoutStrategy implements CheckoutStrategy {

    static final String NAME = "kafka";

    private static final Logger log = LoggerFactory.getLogger(KafkaCheckoutStrategy.class);

    private final CheckoutCommandPublisher publisher;
    private final CheckoutWaiters waiters;
    private final OrderRepository orders;
    private final Clock clock = Clock.systemUTC();

    KafkaCheckoutStrategy(CheckoutCommandPublisher publisher, CheckoutWaiters waiters, OrderRepository orders) {
        this.publisher = publisher;
        this.waiters = waiters;
        this.orders = orders;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckoutReply checkout(Order order, CheckoutOptions options) {
        var command =
                CheckoutCommand.of(order.id(), order.productId(), order.userId(), order.quantity(), clock.instant());
        var wait = options.preferredWait();
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
}
