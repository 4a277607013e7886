package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.Topics;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The reserver: consumes a poll of reservation steps (one partition's, so each product's steps arrive at one place,
 * in order), applies them in one transaction, then sends a reply per step to the cart's coordinator and waits for
 * the broker, then dead letters. Throwing has the whole poll redelivered; the steps' claims turn it into duplicates
 * that reply again with their lines' states.
 */
@Component
class ReservationListener {

    static final String ID = "checkout-reservations";

    private final ReservationApplier applier;
    private final SagaReports reports;

    ReservationListener(ReservationApplier applier, SagaReports reports) {
        this.applier = applier;
        this.reports = reports;
    }

    @KafkaListener(
            id = ID,
            idIsGroup = false,
            topics = Topics.CHECKOUT_RESERVATIONS,
            containerFactory = CartKafkaConfiguration.RESERVATIONS_CONTAINER_FACTORY)
    void onReservations(List<ConsumerRecord<@Nullable String, @Nullable ReservationCommand>> records) {
        var polled = new Polled<ReservationCommand>(records, ReservationCommand::commandId);
        var applied = applier.apply(polled.deliveries());
        polled.deadLetter(applied.invalid());
        reports.replied(
                applied.replies().stream().map(Reservations.Reply::reply).toList());
        // a release reopens its product at the API's door
        reports.stock(applied.stockLeft());
        reports.deadLetter(Topics.CHECKOUT_RESERVATIONS, polled);
    }
}
