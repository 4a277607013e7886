package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutResult;
import java.util.ArrayList;
import java.util.List;

/**
 * What applying a poll's commands produced, after the commit.
 *
 * @param results one result per applied delivery, duplicates included
 * @param invalid the deliveries that go to the dead-letter topic instead
 */
record AppliedBatch(List<CheckoutResult> results, List<InvalidCommand> invalid) {

    static final AppliedBatch EMPTY = new AppliedBatch(List.of(), List.of());

    AppliedBatch {
        results = List.copyOf(results);
        invalid = List.copyOf(invalid);
    }

    static AppliedBatch invalid(InvalidCommand invalid) {
        return new AppliedBatch(List.of(), List.of(invalid));
    }

    static AppliedBatch merge(List<AppliedBatch> batches) {
        var results = new ArrayList<CheckoutResult>();
        var invalid = new ArrayList<InvalidCommand>();
        for (var batch : batches) {
            results.addAll(batch.results());
            invalid.addAll(batch.invalid());
        }
        return new AppliedBatch(results, invalid);
    }
}
