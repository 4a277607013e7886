package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationCommand.Action;
import dev.orderpipeline.worker.checkout.BatchFailures;
import dev.orderpipeline.worker.checkout.FailureKind;
import dev.orderpipeline.worker.checkout.PaymentRepository;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The cart saga's coordinator: starts each cart's saga, decides it from its lines' states, and sends the steps that
 * follow (reservations at the start, releases after a rejection). The saga's state is the order row (CREATED with a
 * checkout deadline while it runs) and its lines' states; a message only says that something may have changed.
 *
 * <p>Every transaction locks the orders first (by id), then their lines (by order and line number), and moves them
 * only from the states it read under those locks, with the states in the statements' WHERE clauses; the reserver
 * locks lines, then products. A reservation running at the same moment as a decision is serialized by the line's
 * lock: either it reserved first and the decision sees RESERVED (and releases it), or the decision cancelled the
 * PENDING line first and the reservation takes nothing.
 */
@Service
class CartCoordinator {

    private final TransactionTemplate transactions;
    private final CartOrderRepository orders;
    private final OrderLineRepository lines;
    private final PaymentRepository payments;
    private final SagaCommandRepository claims;
    private final BatchFailures failures;
    private final CartProperties properties;
    private final ParkedCarts parked;

    CartCoordinator(
            TransactionTemplate transactions,
            CartOrderRepository orders,
            OrderLineRepository lines,
            PaymentRepository payments,
            SagaCommandRepository claims,
            BatchFailures failures,
            CartProperties properties,
            ParkedCarts parked) {
        this.transactions = transactions;
        this.orders = orders;
        this.lines = lines;
        this.payments = payments;
        this.claims = claims;
        this.failures = failures;
        this.properties = properties;
        this.parked = parked;
    }

    /**
     * Starts the sagas of a poll's cart checkouts in one transaction: claims each command id, sets each CREATED cart's
     * deadline, and returns a reservation per line to send. A command claimed before (a redelivery after a crash
     * between the commit and the sends) re-sends the reservations of the lines still PENDING, or reports the outcome
     * of a cart decided meanwhile.
     *
     * @throws RuntimeException a transient failure; the caller redelivers the poll
     */
    SagaSteps start(List<Delivery<CartCheckoutCommand>> deliveries) {
        if (deliveries.isEmpty()) {
            return SagaSteps.EMPTY;
        }
        return failures.applyOrSplit(
                "cart checkouts",
                deliveries,
                batch -> committed(() -> startInOneTransaction(batch)),
                (delivery, reason) -> SagaSteps.invalid(new InvalidDelivery(delivery, reason)),
                SagaSteps::merge,
                delivery -> delivery.describe(delivery.message().commandId()));
    }

    /**
     * Decides the given carts from their lines' states, as a reply about one of their lines arrived: COMPLETED when
     * every line is RESERVED, REJECTED when one was REFUSED; the others wait. Orders that are not running carts are
     * left alone (a late or repeated reply). A cart whose decision fails for a reason retrying will not cure (a
     * constraint it breaks) is found by deciding the carts one per transaction, and comes back in
     * {@link SagaSteps#failed()}; the others are decided all the same.
     *
     * @throws RuntimeException a transient failure; the caller redelivers the poll
     */
    SagaSteps decide(Collection<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return SagaSteps.EMPTY;
        }
        // nothing in a reply goes into a statement: a cart at fault is one whose rows the database refuses to move
        return failures.applyOrSplit(
                "cart decisions",
                List.copyOf(new TreeSet<>(orderIds)),
                ids -> committed(() -> decideInOneTransaction(orders.lock(ids).values(), false)),
                SagaSteps::failed,
                SagaSteps::merge,
                orderId -> "The decision of cart " + orderId);
    }

    /**
     * Decides up to a batch of carts past their deadline, as {@link #decide} does, else REJECTED RESERVATION_TIMEOUT;
     * only carts whose deadline is before {@code cutoff}, the moment up to which the saga's consumers have read
     * everything ({@link SagaBacklog}), and none that is {@link ParkedCarts parked}. When one of them fails for a
     * reason retrying will not cure, they are decided one per transaction and that one comes back in
     * {@link SagaSteps#failed()}, to be parked.
     *
     * @throws RuntimeException a transient failure; the next sweep tries again
     */
    SagaSteps expire(OffsetDateTime cutoff) {
        var found = new ArrayList<UUID>();
        try {
            return committed(() -> {
                var locked = orders.lockOverdue(cutoff, properties.sweepBatch(), parked.ids());
                locked.forEach(order -> found.add(order.id()));
                return decideInOneTransaction(locked, true);
            });
        } catch (RuntimeException ex) {
            if (FailureKind.of(ex) == FailureKind.TRANSIENT || found.isEmpty()) {
                throw failures.redelivered("expired carts", found.size(), ex);
            }
        }
        return failures.applyOrSplit(
                "expired carts",
                found,
                ids -> committed(() -> decideInOneTransaction(orders.lockOverdue(ids, cutoff), true)),
                SagaSteps::failed,
                SagaSteps::merge,
                orderId -> "The timeout of cart " + orderId);
    }

    /** Claims the lines whose release is overdue and returns their release steps, to be sent again. */
    List<ReservationCommand> staleReleases() {
        var stale = Objects.requireNonNull(transactions.execute(
                status -> lines.claimStaleReleases(properties.releaseResendAfter(), properties.sweepBatch())));
        var now = Instant.now();
        return stale.stream().map(line -> release(line, now)).toList();
    }

    private SagaSteps committed(Supplier<Decided> work) {
        var decided = Objects.requireNonNull(transactions.execute(status -> work.get()));
        failures.committed();
        return decided.toSteps(Instant.now());
    }

    private Decided startInOneTransaction(List<Delivery<CartCheckoutCommand>> deliveries) {
        var orderIds = new TreeSet<UUID>();
        deliveries.forEach(delivery -> orderIds.add(delivery.message().orderId()));
        var locked = orders.lock(orderIds);
        var linesByOrder = lines.lockOfOrders(orderIds);

        var decided = new Decided();
        var firsts = new LinkedHashMap<UUID, Delivery<CartCheckoutCommand>>();
        for (var delivery : deliveries) {
            var command = delivery.message();
            var order = locked.get(command.orderId());
            var orderLines = linesByOrder.getOrDefault(command.orderId(), List.of());
            var mismatch = order == null
                    ? "order " + command.orderId() + " does not exist"
                    : order.mismatch(command, orderLines);
            if (mismatch != null) {
                decided.invalid.add(new InvalidDelivery(delivery, mismatch));
            } else {
                // a command repeated within the poll is the same command: its first delivery speaks for it
                firsts.putIfAbsent(command.commandId(), delivery);
            }
        }
        var claimed = claims.claim(firsts.values().stream()
                .map(delivery -> new SagaCommandRepository.Claim(
                        delivery.message().commandId(), delivery.message().orderId()))
                .toList());

        var starting = new ArrayList<UUID>();
        var notCreated = new ArrayList<CartDecision>();
        for (var delivery : firsts.values()) {
            var command = delivery.message();
            var order = Objects.requireNonNull(locked.get(command.orderId()));
            var orderLines = linesByOrder.getOrDefault(command.orderId(), List.of());
            var fresh = claimed.contains(command.commandId());
            var outcome = order.outcome();
            if (fresh && order.isCreated() && !order.started()) {
                starting.add(order.id());
                orderLines.forEach(line -> decided.steps.add(reserve(line, command.requestedAt())));
            } else if (fresh && !order.isCreated()) {
                notCreated.add(CartDecision.notCreated(order.id()));
            } else if (outcome != null) {
                var reason = order.rejectReason();
                decided.duplicates.add(new CartDecision(order.id(), outcome, reason, List.of(), false));
            } else {
                // claimed before and still running: the reservations that may not have gone out go again
                orderLines.stream()
                        .filter(line -> line.status() == LineStatus.PENDING)
                        .forEach(line -> decided.steps.add(reserve(line, command.requestedAt())));
            }
        }
        expectRows("orders started", starting.size(), orders.start(starting, properties.reservationTimeout()));
        expectRows("outcomes", notCreated.size(), claims.recordOutcomes(notCreated));
        decided.started = starting.size();
        decided.decisions.addAll(notCreated);
        return decided;
    }

    private Decided decideInOneTransaction(Collection<CartOrder> locked, boolean timedOut) {
        var running = locked.stream()
                .filter(order -> order.cart() && order.isCreated() && order.started())
                .map(CartOrder::id)
                .toList();
        var linesByOrder = lines.lockOfOrders(running);
        var decided = new Decided();
        var changes = new ArrayList<LineChange>();
        for (var orderId : running) {
            var decision = decide(orderId, linesByOrder.getOrDefault(orderId, List.of()), timedOut, changes);
            if (decision != null) {
                decided.decisions.add(decision);
            }
        }
        expectRows("order_line", changes.size(), lines.change(changes));
        expectRows("orders", decided.decisions.size(), orders.decide(decided.decisions));
        var completed = decided.decisions.stream()
                .filter(decision -> decision.outcome() == CheckoutOutcome.COMPLETED)
                .map(CartDecision::orderId)
                .toList();
        expectRows("payment", completed.size(), payments.captureCarts(completed));
        expectRows("outcomes", decided.decisions.size(), claims.recordOutcomes(decided.decisions));
        return decided;
    }

    /**
     * One cart's decision from its locked lines, with the lines' moves added to {@code changes}; null while it waits.
     * A late cart whose lines are all reserved by now completes all the same: the timeout only ends the waiting.
     */
    private static @Nullable CartDecision decide(
            UUID orderId, List<Line> orderLines, boolean timedOut, List<LineChange> changes) {
        if (!orderLines.isEmpty() && orderLines.stream().allMatch(line -> line.status() == LineStatus.RESERVED)) {
            orderLines.forEach(line -> changes.add(new LineChange(line, line.to(LineStatus.SOLD, null))));
            return CartDecision.completed(orderId);
        }
        var refused = orderLines.stream()
                .filter(line -> line.status() == LineStatus.REFUSED)
                .findFirst();
        if (refused.isEmpty() && !timedOut) {
            return null;
        }
        var reason = refused.map(line -> Objects.requireNonNull(line.rejectReason()))
                .orElse(RejectReason.RESERVATION_TIMEOUT);
        var released = new ArrayList<Line>();
        for (var line : orderLines) {
            if (line.status() == LineStatus.PENDING) {
                changes.add(new LineChange(line, line.to(LineStatus.CANCELLED, null)));
            } else if (line.status() == LineStatus.RESERVED) {
                var releasing = line.to(LineStatus.RELEASING, null);
                changes.add(new LineChange(line, releasing));
                released.add(releasing);
            }
        }
        return CartDecision.rejected(orderId, reason, released);
    }

    private static ReservationCommand reserve(Line line, Instant requestedAt) {
        return ReservationCommand.of(Action.RESERVE, line.orderId(), line.cartLine(), requestedAt);
    }

    private static ReservationCommand release(Line line, Instant requestedAt) {
        return ReservationCommand.of(Action.RELEASE, line.orderId(), line.cartLine(), requestedAt);
    }

    /** The rows are locked by this transaction, so any other count is a bug: roll back. */
    private static void expectRows(String what, int expected, int actual) {
        if (expected != actual) {
            throw new IllegalStateException("expected to write " + expected + " " + what + " but wrote " + actual);
        }
    }

    /** What one coordinator transaction decided, to be sent once it commits. */
    private static final class Decided {

        final List<ReservationCommand> steps = new ArrayList<>();
        final List<CartDecision> decisions = new ArrayList<>();
        final List<CartDecision> duplicates = new ArrayList<>();
        final List<InvalidDelivery> invalid = new ArrayList<>();
        int started;

        SagaSteps toSteps(Instant committedAt) {
            var allSteps = new ArrayList<>(steps);
            var results = new ArrayList<CheckoutResult>();
            for (var decision : decisions) {
                decision.released().forEach(line -> allSteps.add(release(line, committedAt)));
                results.add(decision.toResult(false, committedAt));
            }
            duplicates.forEach(decision -> results.add(decision.toResult(true, committedAt)));
            return new SagaSteps(allSteps, results, decisions, started, invalid, List.of());
        }
    }
}
