package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.ReservationReply;
import java.util.ArrayList;
import java.util.List;

/**
 * What applying a poll's reservation steps produced, after the commit.
 *
 * @param replies a reply per applied step, duplicates included, and whether it was one
 * @param invalid the deliveries that go to the dead-letter topic instead
 */
record Reservations(List<Reply> replies, List<InvalidDelivery> invalid) {

    static final Reservations EMPTY = new Reservations(List.of(), List.of());

    Reservations {
        replies = List.copyOf(replies);
        invalid = List.copyOf(invalid);
    }

    static Reservations invalid(InvalidDelivery invalid) {
        return new Reservations(List.of(), List.of(invalid));
    }

    static Reservations merge(List<Reservations> all) {
        var replies = new ArrayList<Reply>();
        var invalid = new ArrayList<InvalidDelivery>();
        for (var each : all) {
            replies.addAll(each.replies());
            invalid.addAll(each.invalid());
        }
        return new Reservations(replies, invalid);
    }

    /**
     * A step's reply.
     *
     * @param reply what the step's line is now
     * @param duplicate whether the step had been applied before this delivery
     */
    record Reply(ReservationReply reply, boolean duplicate) {}
}
