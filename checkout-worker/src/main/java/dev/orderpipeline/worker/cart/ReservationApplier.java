package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationCommand.Action;
import dev.orderpipeline.contract.ReservationReply;
import dev.orderpipeline.contract.ReservationReply.LineOutcome;
import dev.orderpipeline.worker.checkout.BatchFailures;
import dev.orderpipeline.worker.checkout.ProductRepository;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies reservation steps, a poll's in one transaction, with the single-product applier's shape:
 *
 * <ol>
 *   <li>lock the steps' lines, by order and line number, and set aside the steps that do not match their line;
 *   <li>claim the steps' command ids in one statement: a step claimed before is a duplicate and changes nothing;
 *   <li>lock the products whose stock a fresh step may move, by id, and decide each fresh step in apply order from
 *       the locked lines and stock: a PENDING line is RESERVED if its product has the units, else REFUSED; a line
 *       no longer PENDING (its order was decided first, the line CANCELLED) takes nothing; a RELEASING line is
 *       RELEASED and its units go back;
 *   <li>write the lines' moves, each guarded by the state it was decided from, and the stock with its guard, one
 *       statement each, and check their row counts.
 * </ol>
 *
 * <p>Safe to run twice on the same steps, also at the same moment: the second run waits for the first one's line
 * locks, then finds its claims and replies with the lines' states.
 */
@Service
class ReservationApplier {

    private final TransactionTemplate transactions;
    private final OrderLineRepository lines;
    private final ProductRepository products;
    private final SagaCommandRepository claims;
    private final BatchFailures failures;
    private final CartMetrics metrics;

    ReservationApplier(
            TransactionTemplate transactions,
            OrderLineRepository lines,
            ProductRepository products,
            SagaCommandRepository claims,
            BatchFailures failures,
            CartMetrics metrics) {
        this.transactions = transactions;
        this.lines = lines;
        this.products = products;
        this.claims = claims;
        this.failures = failures;
        this.metrics = metrics;
    }

    /**
     * Applies the steps of one poll and returns the replies to send, once committed.
     *
     * @throws RuntimeException a transient failure; the caller redelivers the poll
     */
    Reservations apply(List<Delivery<ReservationCommand>> deliveries) {
        if (deliveries.isEmpty()) {
            return Reservations.EMPTY;
        }
        var applied = failures.applyOrSplit(
                "reservation steps",
                deliveries,
                this::applyInOneTransaction,
                (delivery, reason) -> Reservations.invalid(new InvalidDelivery(delivery, reason)),
                Reservations::merge,
                delivery -> delivery.describe(delivery.message().commandId()));
        metrics.stepsApplied(applied);
        return applied;
    }

    private Reservations applyInOneTransaction(List<Delivery<ReservationCommand>> deliveries) {
        var decided = Objects.requireNonNull(transactions.execute(status -> decide(deliveries)));
        failures.committed();
        var committedAt = Instant.now();
        var replies = new ArrayList<Reservations.Reply>();
        for (var settled : decided.settled()) {
            var reply = reply(settled.delivery().message(), settled.line(), committedAt);
            if (reply != null) {
                replies.add(new Reservations.Reply(reply, settled.duplicate()));
            }
        }
        return new Reservations(replies, decided.invalid(), decided.stockLeft());
    }

    private Decided decide(List<Delivery<ReservationCommand>> deliveries) {
        // A step's first delivery in this poll is decided; later ones reply with the same line.
        var firsts = new LinkedHashMap<UUID, Delivery<ReservationCommand>>();
        var repeated = new ArrayList<Delivery<ReservationCommand>>();
        for (var delivery : deliveries) {
            if (firsts.putIfAbsent(delivery.message().commandId(), delivery) != null) {
                repeated.add(delivery);
            }
        }
        var keys = new TreeSet<Line.Key>();
        firsts.values().forEach(delivery -> keys.add(key(delivery.message())));
        var locked = new HashMap<>(lines.lock(keys));

        var invalid = new ArrayList<InvalidDelivery>();
        var invalidIds = new HashSet<UUID>();
        var valid = new ArrayList<Delivery<ReservationCommand>>();
        for (var delivery : firsts.values()) {
            var mismatch = mismatch(delivery.message(), locked.get(key(delivery.message())));
            if (mismatch != null) {
                invalid.add(new InvalidDelivery(delivery, mismatch));
                invalidIds.add(delivery.message().commandId());
            } else {
                valid.add(delivery);
            }
        }
        var claimed = claims.claim(valid.stream()
                .map(delivery -> new SagaCommandRepository.Claim(
                        delivery.message().commandId(), delivery.message().orderId()))
                .toList());
        var fresh = valid.stream()
                .filter(delivery -> claimed.contains(delivery.message().commandId()))
                .sorted(Delivery.STEP_ORDER)
                .toList();

        var stockLeft = applyFresh(fresh, locked);

        var settled = new ArrayList<Settled>(deliveries.size());
        for (var delivery : valid) {
            var duplicate = !claimed.contains(delivery.message().commandId());
            settled.add(new Settled(delivery, Objects.requireNonNull(locked.get(key(delivery.message()))), duplicate));
        }
        for (var delivery : repeated) {
            if (invalidIds.contains(delivery.message().commandId())) {
                invalid.add(new InvalidDelivery(delivery, "repeats a step that cannot be applied"));
            } else {
                settled.add(new Settled(delivery, Objects.requireNonNull(locked.get(key(delivery.message()))), true));
            }
        }
        return new Decided(settled, invalid, stockLeft);
    }

    /**
     * Decides the fresh steps in apply order and writes their moves; {@code locked} follows the lines' states.
     * Returns the stock left of the products it locked.
     */
    private Map<UUID, Integer> applyFresh(List<Delivery<ReservationCommand>> fresh, Map<Line.Key, Line> locked) {
        var productIds = new TreeSet<UUID>();
        for (var delivery : fresh) {
            var step = delivery.message();
            var status = Objects.requireNonNull(locked.get(key(step))).status();
            if (moves(step.action(), status)) {
                productIds.add(step.productId());
            }
        }
        var stock = new HashMap<>(products.lockStock(productIds));
        var changes = new ArrayList<LineChange>();
        var taken = new TreeMap<UUID, Integer>();
        for (var delivery : fresh) {
            var step = delivery.message();
            var line = Objects.requireNonNull(locked.get(key(step)));
            if (!moves(step.action(), line.status())) {
                continue;
            }
            var left = Objects.requireNonNull(stock.get(step.productId()), "the product is locked");
            Line next;
            if (step.action() == Action.RELEASE) {
                next = line.to(LineStatus.RELEASED, null);
                stock.put(step.productId(), left + step.quantity());
                taken.merge(step.productId(), -step.quantity(), Integer::sum);
            } else if (left >= step.quantity()) {
                next = line.to(LineStatus.RESERVED, null);
                stock.put(step.productId(), left - step.quantity());
                taken.merge(step.productId(), step.quantity(), Integer::sum);
            } else {
                next = line.to(LineStatus.REFUSED, RejectReason.INSUFFICIENT_STOCK);
            }
            changes.add(new LineChange(line, next));
            locked.put(next.key(), next);
        }
        var moved = lines.change(changes);
        if (moved != changes.size()) {
            throw new ConcurrencyFailureException((changes.size() - moved) + " of " + changes.size()
                    + " locked lines were not in the state this transaction read");
        }
        taken.values().removeIf(units -> units == 0);
        var updated = products.takeStock(taken);
        if (updated != taken.size()) {
            throw new ConcurrencyFailureException("the stock of " + (taken.size() - updated) + " of " + taken.size()
                    + " locked products was not what this transaction read");
        }
        return stock;
    }

    /** Whether a step moves its line (and stock): a reservation of a PENDING line, a release of a RELEASING one. */
    private static boolean moves(Action action, LineStatus status) {
        return action == Action.RESERVE ? status == LineStatus.PENDING : status == LineStatus.RELEASING;
    }

    /** Why the step does not describe its line, or null when it does. */
    private static @Nullable String mismatch(ReservationCommand step, @Nullable Line line) {
        if (line == null) {
            return "line " + step.lineNo() + " of order " + step.orderId() + " does not exist";
        }
        if (!line.productId().equals(step.productId()) || line.quantity() != step.quantity()) {
            return "product " + step.productId() + " x" + step.quantity() + " is not line " + step.lineNo()
                    + " of order " + step.orderId();
        }
        // a release is sent only once its line is RELEASING, and nothing moves a line back from there
        if (step.action() == Action.RELEASE
                && !Set.of(LineStatus.RELEASING, LineStatus.RELEASED).contains(line.status())) {
            return "line " + step.lineNo() + " of order " + step.orderId() + " is " + line.status() + ", not released";
        }
        return null;
    }

    private static @Nullable ReservationReply reply(ReservationCommand step, Line line, Instant decidedAt) {
        var outcome = line.status().outcome();
        if (outcome == null) {
            return null;
        }
        return new ReservationReply(
                step.commandId(),
                step.action(),
                step.orderId(),
                step.lineNo(),
                step.productId(),
                outcome,
                outcome == LineOutcome.REFUSED ? line.rejectReason() : null,
                decidedAt);
    }

    private static Line.Key key(ReservationCommand step) {
        return new Line.Key(step.orderId(), step.lineNo());
    }

    private record Decided(List<Settled> settled, List<InvalidDelivery> invalid, Map<UUID, Integer> stockLeft) {}

    /** A valid step's delivery and its line after this transaction. */
    private record Settled(Delivery<ReservationCommand> delivery, Line line, boolean duplicate) {}
}
