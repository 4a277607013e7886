package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What applying a poll's commands produced, after the commit.
 *
 * @param results one result per applied delivery, duplicates included
 * @param invalid the deliveries that go to the dead-letter topic instead
 * @param stockLeft the stock of every product the batch locked, as committed
 */
record AppliedBatch(List<CheckoutResult> results, List<InvalidCommand> invalid, Map<UUID, Integer> stockLeft) {

    static final AppliedBatch EMPTY = new AppliedBatch(List.of(), List.of(), Map.of());

    AppliedBatch {
        results = List.copyOf(results);
        invalid = List.copyOf(invalid);
        stockLeft = Map.copyOf(stockLeft);
    }

    static AppliedBatch invalid(InvalidCommand invalid) {
        return new AppliedBatch(List.of(), List.of(invalid), Map.of());
    }

    static AppliedBatch merge(List<AppliedBatch> batches) {
        var results = new ArrayList<CheckoutResult>();
        var invalid = new ArrayList<InvalidCommand>();
        // the batches committed in this order, so a later one's stock is the newer
        var stockLeft = new LinkedHashMap<UUID, Integer>();
        for (var batch : batches) {
            results.addAll(batch.results());
            invalid.addAll(batch.invalid());
            stockLeft.putAll(batch.stockLeft());
        }
        return new AppliedBatch(results, invalid, stockLeft);
    }
}
