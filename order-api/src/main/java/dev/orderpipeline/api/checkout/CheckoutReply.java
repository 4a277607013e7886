package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderStatus;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** What a strategy answers: the order decided (200 with the order) or the checkout accepted (202). */
public sealed interface CheckoutReply {

    /** The {@code outcome} tag of the {@code checkout.requests} timer. */
    String outcome();

    /** The {@code Prefer: wait} honoured, or {@code null} when the reply did not wait. */
    @Nullable
    Duration waited();

    /** The reply of a strategy that decided the order in the request. */
    static CheckoutReply decided(Order order) {
        return new Decided(order, null);
    }

    /**
     * The order reached a final status.
     *
     * @param order the order as read after the decision
     * @param waited the wait honoured, if the decision was awaited
     */
    record Decided(Order order, @Nullable Duration waited) implements CheckoutReply {

        public Decided {
            Objects.requireNonNull(order, "order");
            if (!order.status().isFinal()) {
                throw new IllegalArgumentException("order " + order.id() + " is " + order.status() + ", not final");
            }
        }

        @Override
        public String outcome() {
            return order.status().name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The checkout was handed on and is not decided yet, as far as this request knows.
     *
     * @param orderId the order, to poll
     * @param commandId the command that carries the checkout
     * @param status the order's status when the reply was made
     * @param waited the wait honoured, if the client asked to wait and the decision did not come in time
     */
    record Accepted(
            UUID orderId,
            UUID commandId,
            OrderStatus status,
            @Nullable Duration waited) implements CheckoutReply {

        public Accepted {
            Objects.requireNonNull(orderId, "orderId");
            Objects.requireNonNull(commandId, "commandId");
            Objects.requireNonNull(status, "status");
        }

        @Override
        public String outcome() {
            return "accepted";
        }
    }
}
