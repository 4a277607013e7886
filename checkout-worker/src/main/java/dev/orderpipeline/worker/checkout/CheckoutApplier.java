package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.RejectReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies checkout commands to the database: a poll's commands in one transaction, so the cost of a commit is
 * shared by the whole batch, and a fixed number of set-based statements whatever the batch size:
 *
 * <ol>
 *   <li>lock the orders, in id order;
 *   <li>find the commands already recorded in the idempotency table: they are duplicates;
 *   <li>lock the products of the others, in id order, and decide each command in apply order from that stock;
 *   <li>take what the decisions took from each product, with the stock guard in the statement;
 *   <li>write the order statuses, the payments, and the idempotency rows with the outcomes.
 * </ol>
 *
 * <p>Safe to run twice on the same commands, also at the same moment: the second run waits for the first one's order
 * locks, then finds its idempotency rows, reports its outcomes as duplicates and changes nothing.
 */
@Service
class CheckoutApplier {

    private final TransactionTemplate transactions;
    private final OrderRepository orders;
    private final ProductRepository products;
    private final PaymentRepository payments;
    private final ProcessedCommandRepository processedCommands;
    private final CheckoutMetrics metrics;
    private final BatchFailures failures;

    CheckoutApplier(
            TransactionTemplate transactions,
            OrderRepository orders,
            ProductRepository products,
            PaymentRepository payments,
            ProcessedCommandRepository processedCommands,
            CheckoutMetrics metrics,
            BatchFailures failures) {
        this.transactions = transactions;
        this.orders = orders;
        this.products = products;
        this.payments = payments;
        this.processedCommands = processedCommands;
        this.metrics = metrics;
        this.failures = failures;
    }

    /**
     * Applies the deliveries of one poll and returns what to report, once committed.
     *
     * <p>If the batch transaction fails because a command is at fault ({@link FailureKind#RECORD_AT_FAULT}: the
     * database refused what one of them carries), the commands are applied one by one, each in its own transaction,
     * so that the bad command goes to the dead-letter topic and the others are applied. Any other failure is
     * {@link FailureKind#TRANSIENT}, also in the one-by-one pass: no command is dead-lettered for it.
     *
     * @throws RuntimeException a transient failure; the caller redelivers the same deliveries, and what had been
     *     committed before it reads as duplicates then
     */
    AppliedBatch apply(List<CheckoutDelivery> deliveries) {
        if (deliveries.isEmpty()) {
            return AppliedBatch.EMPTY;
        }
        var applied = metrics.timeApply(() -> failures.applyOrSplit(
                "checkout commands",
                deliveries,
                this::applyInOneTransaction,
                (delivery, reason) -> AppliedBatch.invalid(new InvalidCommand(delivery, reason)),
                AppliedBatch::merge,
                delivery -> "Checkout command " + delivery.command().commandId() + " at " + delivery.partition() + "@"
                        + delivery.offset()));
        metrics.applied(applied.results());
        return applied;
    }

    private AppliedBatch applyInOneTransaction(List<CheckoutDelivery> deliveries) {
        var decided = Objects.requireNonNull(transactions.execute(status -> decide(deliveries)));
        failures.committed();
        // the time after the last statement: the commit, waiting for the WAL flush
        metrics.recordStep("commit", System.nanoTime() - decided.decidedAtNanos());
        var committedAt = Instant.now();
        var results = decided.settled().stream()
                .map(settled -> settled.toResult(committedAt))
                .toList();
        return new AppliedBatch(results, decided.invalid(), decided.stockLeft());
    }

    /** The whole decision for a batch; runs inside its transaction. */
    private Decided decide(List<CheckoutDelivery> deliveries) {
        var orderRows = metrics.timeStep(
                "lock_orders",
                () -> orders.lockAll(deliveries.stream()
                        .map(delivery -> delivery.command().orderId())
                        .distinct()
                        .toList()));

        // A command's first delivery in this poll is decided; later ones report the same outcome as duplicates.
        var invalid = new ArrayList<InvalidCommand>();
        var firstDeliveries = new HashMap<UUID, CheckoutDelivery>();
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

        // A statement of its own, after the orders are locked: under READ COMMITTED it reads a snapshot taken after
        // any transaction that applied one of these commands (it held the order) has committed.
        var recorded =
                metrics.timeStep("find_recorded", () -> processedCommands.findOutcomes(firstDeliveries.keySet()));
        var freshDeliveries = firstDeliveries.values().stream()
                .filter(delivery -> !recorded.containsKey(delivery.command().commandId()))
                .sorted(CheckoutDelivery.APPLY_ORDER)
                .toList();

        var fresh = decideFresh(freshDeliveries, orderRows);
        var decisions = fresh.decisions();
        record(decisions);

        var settled = new ArrayList<Settled>(firstDeliveries.size() + repeated.size());
        decisions.forEach(decision -> settled.add(Settled.fresh(decision)));
        for (var delivery : firstDeliveries.values()) {
            var outcome = recorded.get(delivery.command().commandId());
            if (outcome != null) {
                settled.add(Settled.recorded(delivery, outcome));
            }
        }
        var freshByCommand = decisions.stream()
                .collect(Collectors.toMap(decision -> decision.command().commandId(), Function.identity()));
        for (var delivery : repeated) {
            var commandId = delivery.command().commandId();
            var decision = freshByCommand.get(commandId);
            settled.add(
                    decision != null
                            ? Settled.repeated(delivery, decision)
                            : Settled.recorded(delivery, Objects.requireNonNull(recorded.get(commandId))));
        }
        return new Decided(settled, invalid, fresh.stockLeft(), System.nanoTime());
    }

    /**
     * Decides the fresh commands in apply order from the stock of their products, locked here: an order that is no
     * longer CREATED is rejected without effect; the others complete while their product has their quantity left, and
     * what they took is then written with one statement. The statement keeps the stock guard, and with the rows
     * locked it cannot fall short; if it ever does, the transaction rolls back and the poll is redelivered.
     */
    private Fresh decideFresh(List<CheckoutDelivery> fresh, Map<UUID, CheckoutOrder> orderRows) {
        var productIds = new TreeSet<UUID>();
        for (var delivery : fresh) {
            var command = delivery.command();
            if (Objects.requireNonNull(orderRows.get(command.orderId())).isCreated()) {
                productIds.add(command.productId());
            }
        }
        var stock = new LockedStock(metrics.timeStep("lock_stock", () -> products.lockStock(productIds)));

        var decisions = new ArrayList<Decision>(fresh.size());
        for (var delivery : fresh) {
            var command = delivery.command();
            if (!Objects.requireNonNull(orderRows.get(command.orderId())).isCreated()) {
                decisions.add(Decision.rejected(command, RejectReason.ORDER_NOT_CREATED));
            } else if (stock.take(command)) {
                decisions.add(Decision.completed(command));
            } else {
                decisions.add(Decision.rejected(command, RejectReason.INSUFFICIENT_STOCK));
            }
        }

        var taken = stock.taken();
        var updated = metrics.timeStep("take_stock", () -> products.takeStock(taken));
        if (updated != taken.size()) {
            throw new ConcurrencyFailureException("the stock of " + (taken.size() - updated) + " of " + taken.size()
                    + " locked products was not what this transaction read");
        }
        return new Fresh(decisions, stock.left());
    }

    private void record(List<Decision> decisions) {
        var orderDecisions = decisions.stream().filter(Decision::decidesOrder).toList();
        expectRows(
                "orders",
                orderDecisions.size(),
                metrics.timeStep("statuses", () -> orders.recordDecisions(orderDecisions)));
        var completedOrders = decisions.stream()
                .filter(decision -> decision.outcome() == CheckoutOutcome.COMPLETED)
                .map(decision -> decision.command().orderId())
                .toList();
        expectRows(
                "payment",
                completedOrders.size(),
                metrics.timeStep("payments", () -> payments.capture(completedOrders)));
        // In command-id order, so two transactions that did meet here would take the index entries in the same order.
        var byCommandId = decisions.stream()
                .sorted(Comparator.comparing(decision -> decision.command().commandId()))
                .toList();
        var inserted = metrics.timeStep("outcomes", () -> processedCommands.record(byCommandId));
        if (inserted != byCommandId.size()) {
            // another transaction recorded some of these commands first: redelivered, they read as duplicates
            throw new ConcurrencyFailureException((byCommandId.size() - inserted) + " of " + byCommandId.size()
                    + " commands were recorded by another transaction meanwhile");
        }
    }

    /** The rows are locked by this transaction, so any other count is a bug: roll back. */
    private static void expectRows(String table, int expected, int actual) {
        if (expected != actual) {
            throw new IllegalStateException(
                    "expected to write " + expected + " " + table + " rows but wrote " + actual);
        }
    }

    /** The fresh commands' decisions, and the stock their products are left with. */
    private record Fresh(List<Decision> decisions, Map<UUID, Integer> stockLeft) {}

    /**
     * What a batch transaction settled: outcomes to report, deliveries to dead-letter, the stock of the products it
     * locked, and when its last statement returned ({@link System#nanoTime()}), to time the commit.
     */
    private record Decided(
            List<Settled> settled, List<InvalidCommand> invalid, Map<UUID, Integer> stockLeft, long decidedAtNanos) {}

    /** A command's outcome: decided now, or recorded earlier (then {@code recordedAt} is set), and whether it repeats. */
    private record Settled(Decision decision, @Nullable Instant recordedAt, boolean duplicate) {

        static Settled fresh(Decision decision) {
            return new Settled(decision, null, false);
        }

        /** A command delivered again in the poll that decides it. */
        static Settled repeated(CheckoutDelivery delivery, Decision decision) {
            return new Settled(
                    new Decision(delivery.command(), decision.outcome(), decision.rejectReason(), false), null, true);
        }

        static Settled recorded(CheckoutDelivery delivery, RecordedOutcome recorded) {
            var decision = new Decision(delivery.command(), recorded.outcome(), recorded.rejectReason(), false);
            return new Settled(decision, recorded.processedAt(), true);
        }

        CheckoutResult toResult(Instant committedAt) {
            var command = decision.command();
            return new CheckoutResult(
                    command.commandId(),
                    command.orderId(),
                    command.productId(),
                    decision.outcome(),
                    decision.rejectReason(),
                    duplicate,
                    recordedAt != null ? recordedAt : committedAt);
        }
    }
}
