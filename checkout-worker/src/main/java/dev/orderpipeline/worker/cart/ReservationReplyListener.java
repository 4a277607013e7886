package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.ReservationReply;
import dev.orderpipeline.contract.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The coordinator's consumer of reservation replies. A reply only names a cart whose lines may have moved: the
 * coordinator decides the poll's carts from their lines' states in one transaction, then sends the releases of the
 * rejected ones (and waits for the broker), then their results. A reply that comes twice or late decides nothing new.
 * The replies of a cart whose decision fails on its own, for a reason retrying will not cure, are dead-lettered with
 * that reason, and the poll's other carts are decided all the same; the cart waits for its deadline, when the sweeper
 * tries it once more and parks it if it fails again.
 */
@Component
class ReservationReplyListener {

    static final String ID = "checkout-reservation-replies";

    private final CartCoordinator coordinator;
    private final SagaReports reports;

    ReservationReplyListener(CartCoordinator coordinator, SagaReports reports) {
        this.coordinator = coordinator;
        this.reports = reports;
    }

    @KafkaListener(
            id = ID,
            idIsGroup = false,
            topics = Topics.CHECKOUT_RESERVATION_REPLIES,
            containerFactory = CartKafkaConfiguration.REPLIES_CONTAINER_FACTORY)
    void onReplies(List<ConsumerRecord<@Nullable String, @Nullable ReservationReply>> records) {
        var polled = new Polled<ReservationReply>(records, ReservationReply::commandId);
        var orderIds = new TreeSet<UUID>();
        polled.deliveries().forEach(delivery -> orderIds.add(delivery.message().orderId()));
        var decided = coordinator.decide(orderIds);
        var failed = new HashMap<UUID, String>();
        decided.failed().forEach(cart -> failed.put(cart.orderId(), cart.reason()));
        polled.deadLetter(polled.deliveries().stream()
                .filter(delivery -> failed.containsKey(delivery.message().orderId()))
                .map(delivery -> new InvalidDelivery(
                        delivery,
                        Objects.requireNonNull(failed.get(delivery.message().orderId()))))
                .toList());
        reports.coordinated(decided);
        reports.deadLetter(Topics.CHECKOUT_RESERVATION_REPLIES, polled);
    }
}
