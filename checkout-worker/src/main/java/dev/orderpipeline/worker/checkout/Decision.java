package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the applying transaction decided for a fresh command.
 *
 * @param command the command
 * @param outcome the outcome
 * @param rejectReason why it was rejected, null when completed
 * @param decidesOrder whether the order row takes this outcome (not when the order was no longer CREATED)
 */
record Decision(
        CheckoutCommand command,
        CheckoutOutcome outcome,
        @Nullable RejectReason rejectReason,
        boolean decidesOrder) {

    Decision {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(outcome, "outcome");
        if ((outcome == CheckoutOutcome.REJECTED) != (rejectReason != null)) {
            throw new IllegalArgumentException("a reject reason goes with REJECTED and only with it");
        }
    }

    static Decision completed(CheckoutCommand command) {
        return new Decision(command, CheckoutOutcome.COMPLETED, null, true);
    }

    static Decision rejected(CheckoutCommand command, RejectReason reason) {
        return new Decision(command, CheckoutOutcome.REJECTED, reason, reason != RejectReason.ORDER_NOT_CREATED);
    }

    /** The decisions' reject reasons as a text array parameter, null where completed. */
    static @Nullable String[] rejectReasonNames(List<Decision> decisions) {
        var names = new @Nullable String[decisions.size()];
        for (int i = 0; i < names.length; i++) {
            var reason = decisions.get(i).rejectReason();
            names[i] = reason == null ? null : reason.name();
        }
        return names;
    }
}
