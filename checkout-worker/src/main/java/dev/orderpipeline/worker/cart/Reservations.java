package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.ReservationReply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What applying a poll's reservation steps produced, after the commit.
 *
 * @param replies a reply per applied step, duplicates included, and whether it was one
 * @param invalid the deliveries that go to the dead-letter topic instead
 * @param stockLeft the stock of every product the steps locked, as committed
 */
record Reservations(List<Reply> replies, List<InvalidDelivery> invalid, Map<UUID, Integer> stockLeft) {

    static final Reservations EMPTY = new Reservations(List.of(), List.of(), Map.of());

    Reservations {
        replies = List.copyOf(replies);
        invalid = List.copyOf(invalid);
        stockLeft = Map.copyOf(stockLeft);
    }

    static Reservations invalid(InvalidDelivery invalid) {
        return new Reservations(List.of(), List.of(invalid), Map.of());
    }

    static Reservations merge(List<Reservations> all) {
        var replies = new ArrayList<Reply>();
        var invalid = new ArrayList<InvalidDelivery>();
        // committed in this order, so a later one's stock is the newer
        var stockLeft = new LinkedHashMap<UUID, Integer>();
        for (var each : all) {
            replies.addAll(each.replies());
            invalid.addAll(each.invalid());
            stockLeft.putAll(each.stockLeft());
        }
        return new Reservations(replies, invalid, stockLeft);
    }

    /**
     * A step's reply.
     *
     * @param reply what the step's line is now
     * @param duplicate whether the step had been applied before this delivery
     */
    record Reply(ReservationReply reply, boolean duplicate) {}
}
