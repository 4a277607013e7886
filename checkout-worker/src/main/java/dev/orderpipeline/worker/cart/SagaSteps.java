package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.ReservationCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * What the coordinator has to send after a commit.
 *
 * @param steps reservation steps (key product id): reserves of started sagas, releases of rejected ones
 * @param results final outcomes (key order id), duplicates included
 * @param decisions the carts decided by this transaction, for the meters
 * @param started how many sagas this transaction started
 * @param invalid the deliveries that go to the dead-letter topic instead
 */
record SagaSteps(
        List<ReservationCommand> steps,
        List<CheckoutResult> results,
        List<CartDecision> decisions,
        int started,
        List<InvalidDelivery> invalid) {

    static final SagaSteps EMPTY = new SagaSteps(List.of(), List.of(), List.of(), 0, List.of());

    SagaSteps {
        steps = List.copyOf(steps);
        results = List.copyOf(results);
        decisions = List.copyOf(decisions);
        invalid = List.copyOf(invalid);
    }

    static SagaSteps invalid(InvalidDelivery invalid) {
        return new SagaSteps(List.of(), List.of(), List.of(), 0, List.of(invalid));
    }

    static SagaSteps merge(List<SagaSteps> all) {
        var steps = new ArrayList<ReservationCommand>();
        var results = new ArrayList<CheckoutResult>();
        var decisions = new ArrayList<CartDecision>();
        var invalid = new ArrayList<InvalidDelivery>();
        int started = 0;
        for (var each : all) {
            steps.addAll(each.steps());
            results.addAll(each.results());
            decisions.addAll(each.decisions());
            invalid.addAll(each.invalid());
            started += each.started();
        }
        return new SagaSteps(steps, results, decisions, started, invalid);
    }
}
