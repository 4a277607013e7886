package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.RejectReason;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What the coordinator decided for a cart.
 *
 * @param orderId the cart
 * @param outcome its final status
 * @param rejectReason why it was rejected, null when completed
 * @param released the lines it reserved that are now RELEASING: a release step goes out for each (the compensation)
 * @param changesOrder whether the order row takes the outcome (not when the order was decided before the saga)
 */
record CartDecision(
        UUID orderId,
        CheckoutOutcome outcome,
        @Nullable RejectReason rejectReason,
        List<Line> released,
        boolean changesOrder) {

    CartDecision {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(outcome, "outcome");
        released = List.copyOf(released);
        if ((outcome == CheckoutOutcome.REJECTED) != (rejectReason != null)) {
            throw new IllegalArgumentException("a reject reason goes with REJECTED and only with it");
        }
    }

    static CartDecision completed(UUID orderId) {
        return new CartDecision(orderId, CheckoutOutcome.COMPLETED, null, List.of(), true);
    }

    static CartDecision rejected(UUID orderId, RejectReason reason, List<Line> released) {
        return new CartDecision(orderId, CheckoutOutcome.REJECTED, reason, released, true);
    }

    /** A cart command whose order was no longer CREATED when its saga was to start: nothing changes. */
    static CartDecision notCreated(UUID orderId) {
        return new CartDecision(orderId, CheckoutOutcome.REJECTED, RejectReason.ORDER_NOT_CREATED, List.of(), false);
    }

    /** The cart's result on {@code checkout.results}, as a single-product checkout's: the API waits on it alike. */
    CheckoutResult toResult(boolean duplicate, Instant decidedAt) {
        return new CheckoutResult(
                CheckoutCommand.idFor(orderId), orderId, null, outcome, rejectReason, duplicate, decidedAt);
    }

    static @Nullable String[] rejectReasonNames(List<CartDecision> decisions) {
        var names = new @Nullable String[decisions.size()];
        for (int i = 0; i < names.length; i++) {
            var reason = decisions.get(i).rejectReason();
            names[i] = reason == null ? null : reason.name();
        }
        return names;
    }
}
