package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.CheckoutPublisher;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The coordinator's consumer of cart checkouts: starts a poll's sagas in one transaction, then sends their
 * reservation steps and waits for the broker, then results and dead letters. Returning commits the poll's offsets;
 * throwing has the whole poll redelivered, and the redelivered commands re-send what may not have gone out.
 */
@Component
class CartCheckoutListener {

    static final String ID = "checkout-carts";

    private final CartCoordinator coordinator;
    private final SagaPublisher saga;
    private final CheckoutPublisher publisher;
    private final CartMetrics metrics;

    CartCheckoutListener(
            CartCoordinator coordinator, SagaPublisher saga, CheckoutPublisher publisher, CartMetrics metrics) {
        this.coordinator = coordinator;
        this.saga = saga;
        this.publisher = publisher;
        this.metrics = metrics;
    }

    @KafkaListener(
            id = ID,
            idIsGroup = false,
            topics = Topics.CHECKOUT_CARTS,
            containerFactory = CartKafkaConfiguration.CARTS_CONTAINER_FACTORY)
    void onCarts(List<ConsumerRecord<@Nullable String, @Nullable CartCheckoutCommand>> records) {
        var polled = new Polled<CartCheckoutCommand>(records, CartCheckoutCommand::commandId);
        var started = coordinator.start(polled.deliveries());
        polled.deadLetter(started.invalid());
        saga.sendSteps(started.steps());
        metrics.started(started.started());
        metrics.decided(started.decisions());
        publisher.publishResults(started.results());
        metrics.deadLettered(Topics.CHECKOUT_CARTS, publisher.deadLetter(polled.deadLetters()));
    }
}
