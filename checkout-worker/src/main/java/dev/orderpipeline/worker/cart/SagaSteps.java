package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.ReservationCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What the coordinator has to send after a commit.
 *
 * @param steps reservation steps (key product id): reserves of started sagas, releases of rejected ones
 * @param results final outcomes (key order id), duplicates included
 * @param decisions the carts decided by this transaction, for the meters
 * @param started how many sagas this transaction started
 * @param invalid the deliveries that go to the dead-letter topic instead
 * @param failed the carts whose decision failed on their own for a reason retrying will not cure (a constraint the
 *     cart breaks): the listener dead-letters their replies, the sweeper parks them
 */
record SagaSteps(
        List<ReservationCommand> steps,
        List<CheckoutResult> results,
        List<CartDecision> decisions,
        int started,
        List<InvalidDelivery> invalid,
        List<FailedCart> failed) {

    static final SagaSteps EMPTY = new SagaSteps(List.of(), List.of(), List.of(), 0, List.of(), List.of());

    SagaSteps {
        steps = List.copyOf(steps);
        results = List.copyOf(results);
        decisions = List.copyOf(decisions);
        invalid = List.copyOf(invalid);
        failed = List.copyOf(failed);
    }

    static SagaSteps invalid(InvalidDelivery invalid) {
        return new SagaSteps(List.of(), List.of(), List.of(), 0, List.of(invalid), List.of());
    }

    static SagaSteps failed(UUID orderId, String reason) {
        return new SagaSteps(List.of(), List.of(), List.of(), 0, List.of(), List.of(new FailedCart(orderId, reason)));
    }

    static SagaSteps merge(List<SagaSteps> all) {
        var steps = new ArrayList<ReservationCommand>();
        var results = new ArrayList<CheckoutResult>();
        var decisions = new ArrayList<CartDecision>();
        var invalid = new ArrayList<InvalidDelivery>();
        var failed = new ArrayList<FailedCart>();
        int started = 0;
        for (var each : all) {
            steps.addAll(each.steps());
            results.addAll(each.results());
            decisions.addAll(each.decisions());
            invalid.addAll(each.invalid());
            failed.addAll(each.failed());
            started += each.started();
        }
        return new SagaSteps(steps, results, decisions, started, invalid, failed);
    }

    /**
     * A cart whose decision cannot be made, on its own, for a reason retrying will not cure.
     *
     * @param orderId the cart
     * @param reason what failed, for the dead-letter reason header and the log
     */
    record FailedCart(UUID orderId, String reason) {}
}
