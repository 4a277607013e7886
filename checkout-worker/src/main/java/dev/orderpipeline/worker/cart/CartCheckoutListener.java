package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.Topics;
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
    private final SagaReports reports;

    CartCheckoutListener(CartCoordinator coordinator, SagaReports reports) {
        this.coordinator = coordinator;
        this.reports = reports;
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
        reports.coordinated(started);
        reports.deadLetter(Topics.CHECKOUT_CARTS, polled);
    }
}
