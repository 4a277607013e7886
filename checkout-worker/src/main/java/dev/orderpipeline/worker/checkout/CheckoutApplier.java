package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.RejectReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies checkout commands to the database: a poll's commands in one transaction, so the cost of a commit is
 * shared by the whole batch, and set-based statements wherever the decision allows it.
 *
 * <p>Safe to run twice on the same commands, also at the same moment: the idempotency claim makes the second run
 * report the first one's outcomes as duplicates and change nothing.
 */
@Service
class CheckoutApplier {

    private static final Logger log = LoggerFactory.getLogger(CheckoutApplier.class);

    private final TransactionTemplate transactions;
    private final OrderRepository orders;
    private final ProductRepository products;
    private final PaymentRepository payments;
    private final ProcessedCommandRepository processedCommands;
    private final CheckoutMetrics metrics;

    CheckoutApplier(
            TransactionTemplate transactions,
            OrderRepository orders,
            ProductRepository products,
            PaymentRepository payments,
            ProcessedCommandRepository processedCommands,
            CheckoutMetrics metrics) {
        this.transactions = transactions;
        this.orders = orders;
        this.products = products;
        this.payments = payments;
        this.processedCommands = processedCommands;
        this.metrics = metrics;
    }

    /**
     * Applies the deliveries of one poll and returns what to report, once committed.
     *
     * <p>If the batch transaction fails for a reason that retrying cannot cure, the commands are applied one by one,
     * each in its own transaction, so that one bad command goes to the dead-letter topic and the others are applied.
     *
     * @throws RuntimeException a transient database failure; the caller redelivers the same deliveries, and what
     *     had been committed before it reads as duplicates then
     */
    AppliedBatch apply(List<CheckoutDelivery> deliveries) {
        if (deliveries.isEmpty()) {
            return AppliedBatch.EMPTY;
        }
        var applied = metrics.timeApply(() -> {
            try {
                return applyInOneTransaction(deliveries);
            } catch (RuntimeException ex) {
                if (TransientFailures.isTransient(ex)) {
                    log.warn(
                            "Transient database failure applying {} checkout commands; the poll will be redelivered",
                            deliveries.size(),
                            ex);
                    throw ex;
                }
                log.warn(
                        "Applying {} checkout commands in one transaction failed; applying them one by one",
                        deliveries.size(),
                        ex);
                return applyOneByOne(deliveries);
            }
        });
        metrics.applied(applied.results());
        return applied;
    }

    private AppliedBatch applyOneByOne(List<CheckoutDelivery> deliveries) {
        var applied = new ArrayList<AppliedBatch>(deliveries.size());
        for (var delivery : deliveries) {
            try {
                applied.add(applyInOneTransaction(List.of(delivery)));
            } catch (RuntimeException ex) {
                if (TransientFailures.isTransient(ex)) {
                    throw ex;
                }
                log.error(
                        "Checkout command {} at {}@{} cannot be applied; dead-lettering it",
                        delivery.command().commandId(),
                        delivery.partition(),
                        delivery.offset(),
                        ex);
                applied.add(AppliedBatch.invalid(new InvalidCommand(
                        delivery,
                        "cannot be applied: "
                                + PoisonCommandException.describe(NestedExceptionUtils.getMostSpecificCause(ex)))));
            }
        }
        return AppliedBatch.merge(applied);
    }

    private AppliedBatch applyInOneTransaction(List<CheckoutDelivery> deliveries) {
        var decided = Objects.requireNonNull(transactions.execute(status -> decide(deliveries)));
        var committedAt = Instant.now();
        var results = decided.settled().stream()
                .map(settled -> settled.toResult(committedAt))
                .toList();
        return new AppliedBatch(results, decided.invalid());
    }

    /** The whole decision for a batch; runs inside its transaction. */
    private Decided decide(List<CheckoutDelivery> deliveries) {
        var orderRows = orders.lockAll(deliveries.stream()
                .map(delivery -> delivery.command().orderId())
                .distinct()
                .toList());

        // A command's first delivery in this poll competes for the claim; later ones are duplicates of it.
        var invalid = new ArrayList<InvalidCommand>();
        var firstDeliveries = new TreeMap<UUID, CheckoutDelivery>();
        var repeated = new ArrayList<CheckoutDelivery>();
        for (var delivery : deliveries) {
            var command = delivery.command();
            var order = orderRows.get(command.orderId());
            var mismatch = order == null ? "order " + command.orderId() + " does not exist" : order.mismatch(command);
            if (mismatch != null) {
                invalid.add(new InvalidCommand(delivery, mismatch));
            } else if (firstDeliveries.putIfAbsent(command.commandId(), delivery) != null) {
                repeated.add(delivery);
            }
        }

        // Claimed in command-id order, so two overlapping transactions take the index entries in the same order.
        var candidates = List.copyOf(firstDeliveries.values());
        var fresh = processedCommands.claim(
                candidates.stream().map(CheckoutDelivery::command).toList());
        var freshDeliveries = new ArrayList<CheckoutDelivery>();
        var duplicates = new ArrayList<>(repeated);
        for (var delivery : candidates) {
            (fresh.contains(delivery.command().commandId()) ? freshDeliveries : duplicates).add(delivery);
        }
        freshDeliveries.sort(CheckoutDelivery.APPLY_ORDER);

        var decisions = decideFresh(freshDeliveries, orderRows);
        record(decisions);

        var recorded = processedCommands.findOutcomes(duplicates.stream()
                .map(delivery -> delivery.command().commandId())
                .collect(Collectors.toSet()));
        var settled = new ArrayList<Settled>(decisions.size() + duplicates.size());
        decisions.values().forEach(decision -> settled.add(Settled.fresh(decision)));
        for (var duplicate : duplicates) {
            var outcome = Objects.requireNonNull(
                    recorded.get(duplicate.command().commandId()), "outcome of a claimed command");
            settled.add(Settled.duplicate(duplicate, outcome));
        }
        return new Decided(settled, invalid);
    }

    /**
     * Decides the fresh commands in apply order: an order that is no longer CREATED is rejected without effect;
     * the others take stock with one conditional UPDATE each, whose row count decides.
     */
    private Map<UUID, Decision> decideFresh(List<CheckoutDelivery> fresh, Map<UUID, CheckoutOrder> orderRows) {
        var decisions = new LinkedHashMap<UUID, Decision>();
        var takers = new ArrayList<CheckoutDelivery>(fresh.size());
        for (var delivery : fresh) {
            if (Objects.requireNonNull(orderRows.get(delivery.command().orderId()))
                    .isCreated()) {
                takers.add(delivery);
            } else {
                var command = delivery.command();
                decisions.put(command.commandId(), Decision.rejected(command, RejectReason.ORDER_NOT_CREATED));
            }
        }
        var taken = products.takeStock(
                takers.stream().map(CheckoutDelivery::command).toList());
        if (taken.length != takers.size()) {
            throw new IllegalStateException("stock batch returned " + taken.length + " counts for " + takers.size());
        }
        for (int i = 0; i < taken.length; i++) {
            var command = takers.get(i).command();
            var decision = switch (taken[i]) {
                case 1 -> Decision.completed(command);
                case 0 -> Decision.rejected(command, RejectReason.INSUFFICIENT_STOCK);
                default -> throw new IllegalStateException("taking stock updated " + taken[i] + " product rows");
            };
            decisions.put(command.commandId(), decision);
        }
        return decisions;
    }

    private void record(Map<UUID, Decision> decisions) {
        var all = List.copyOf(decisions.values());
        var orderDecisions = all.stream().filter(Decision::decidesOrder).toList();
        expectRows("orders", orderDecisions.size(), orders.recordDecisions(orderDecisions));
        var completedOrders = all.stream()
                .filter(decision -> decision.outcome() == CheckoutOutcome.COMPLETED)
                .map(decision -> decision.command().orderId())
                .toList();
        expectRows("payment", completedOrders.size(), payments.capture(completedOrders));
        expectRows("processed_command", all.size(), processedCommands.recordOutcomes(all));
    }

    /** The rows were locked or claimed by this transaction, so any other count is a bug: roll back. */
    private static void expectRows(String table, int expected, int actual) {
        if (expected != actual) {
            throw new IllegalStateException(
                    "expected to write " + expected + " " + table + " rows but wrote " + actual);
        }
    }

    /** What a batch transaction settled: outcomes to report and deliveries to dead-letter. */
    private record Decided(List<Settled> settled, List<InvalidCommand> invalid) {}

    /** A command's outcome: decided now, or recorded earlier (then {@code recordedAt} is set). */
    private record Settled(Decision decision, @Nullable Instant recordedAt) {

        static Settled fresh(Decision decision) {
            return new Settled(decision, null);
        }

        static Settled duplicate(CheckoutDelivery delivery, RecordedOutcome recorded) {
            var decision = new Decision(delivery.command(), recorded.outcome(), recorded.rejectReason(), false);
            return new Settled(decision, recorded.processedAt());
        }

        CheckoutResult toResult(Instant committedAt) {
            var command = decision.command();
            return new CheckoutResult(
                    command.commandId(),
                    command.orderId(),
                    command.productId(),
                    decision.outcome(),
                    decision.rejectReason(),
                    recordedAt != null,
                    recordedAt != null ? recordedAt : committedAt);
        }
    }
}
