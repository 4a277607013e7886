package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.compare.BurstExperiment;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Burst;
import dev.orderpipeline.lab.pipeline.Database;
import dev.orderpipeline.lab.pipeline.Orders;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a carts compare: per strategy a fresh set of products, {@code parallel} buyers with a cart each (prepared,
 * not timed; pairs of carts list the same products in opposite orders), all checkouts released at once and spread
 * round-robin over the API replicas, then a wait until the database has every cart final, then its verdict.
 */
public final class CartsExperiment implements BurstExperiment.Workload<CartRun> {

    /** The answer of a strategy that decided in the request. */
    private static final String DECIDED = "200";

    /** The saga's answer: the command is on its way, the worker decides. */
    private static final String ACCEPTED = "202";

    private static final Logger log = LoggerFactory.getLogger(CartsExperiment.class);
    private static final BigDecimal PRICE = new BigDecimal("10.00");
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration RESULTS_GRACE = Duration.ofSeconds(10);

    private final StackTarget target;
    private final Database database;
    private final CartsSettings settings;
    private final Progress progress;
    private final @Nullable ResultsListener results;

    /**
     * @param results the lab's consumer of checkout results, for the saga's decision times; {@code null}: the
     *     database is polled for them instead
     */
    public CartsExperiment(
            StackTarget target, CartsSettings settings, Progress progress, @Nullable ResultsListener results) {
        this.target = target;
        this.database = target.database();
        this.settings = settings;
        this.progress = progress;
        this.results = results;
    }

    public BurstExperiment.Outcome<CartRun> run() {
        return BurstExperiment.run(target.apis().getFirst(), settings.strategies(), 1, progress, this);
    }

    @Override
    public String apiName(String strategy) {
        return CartStrategies.checkoutName(strategy);
    }

    @Override
    public void warmUp(String strategy) {
        if (settings.warmup() > 0) {
            runOne(strategy, strategy + " warm-up", settings.warmup());
            progress.note(strategy + " warm-up: " + settings.warmup() + " carts (not reported)");
        }
    }

    @Override
    public CartRun run(String strategy, int repetition, String label) {
        return runOne(strategy, label, settings.parallel());
    }

    @Override
    public String describe(CartRun run) {
        return String.format(
                Locale.ROOT,
                "%s: completed %d, rejected %d, %.1f carts/s, p99 %.0f ms, aborted %s, deadlocks %s%s",
                run.strategy(),
                run.invariants().outcomes().completed(),
                run.invariants().outcomes().rejected(),
                run.burst().decidedPerSecond(),
                run.burst().toDecision().p99Ms(),
                run.abortedTransactions(),
                run.deadlocks(),
                BurstExperiment.violated(run.invariants().violations()));
    }

    /** A run's fresh products (with the stock they start with), its buyers and their carts, by index. */
    private record Prepared(Map<UUID, Integer> initialStock, List<String> users, List<UUID> carts) {}

    /**
     * The checkouts as the lab and the database saw them: the carts whose checkout failed, that nothing will decide,
     * and when the database was first seen to have each other one decided.
     */
    private record Watched(Burst burst, Set<UUID> undecided, Map<UUID, Long> seen) {}

    private CartRun runOne(String strategy, String label, int carts) {
        var prepared = prepare(label, carts);
        var listener = CartStrategies.isSaga(strategy) ? results : null;
        if (listener != null) {
            listener.track(prepared.carts());
        }
        var deadlocksBefore = Deadlocks.settled(database.dataSource());
        var abortedBefore = AbortedTransactions.count(target.apis(), strategy);
        var watched = checkOut(strategy, label, prepared);
        var decisions = watched.seen();
        if (listener != null) {
            var accepted = watched.burst().statusCounts().getOrDefault(ACCEPTED, 0L);
            listener.awaitReceived(accepted, System.nanoTime() + RESULTS_GRACE.toNanos());
            decisions = listener.receivedAt();
        }
        var checkouts = checkouts(watched.burst(), prepared.carts(), decisions);
        var missing = IntStream.range(0, carts)
                .filter(index -> checkouts.get(index).decidedAt() == null
                        && watched.seen().containsKey(prepared.carts().get(index)))
                .count();
        var abortedAfter = AbortedTransactions.count(target.apis(), strategy);
        var invariants = CartInvariants.read(database, prepared.initialStock(), prepared.carts());
        var finalTimedOut = prepared.carts().stream()
                .anyMatch(cart -> !watched.seen().containsKey(cart)
                        && !watched.undecided().contains(cart));
        if (finalTimedOut) {
            log.warn(
                    "{}: {} carts still open after {} s; the report counts them as not final",
                    label,
                    invariants.outcomes().notFinal(),
                    settings.finalTimeout().toSeconds());
        }
        return new CartRun(
                strategy,
                BurstFigures.of(watched.burst().releasedAt(), checkouts),
                abortedBefore == null || abortedAfter == null ? null : abortedAfter - abortedBefore,
                Deadlocks.settled(database.dataSource()) - deadlocksBefore,
                missing,
                finalTimedOut,
                invariants);
    }

    /** Fresh products, a buyer per cart and the carts, placed before anything is timed. */
    private Prepared prepare(String label, int carts) {
        var apis = target.apis();
        var initialStock = new LinkedHashMap<UUID, Integer>();
        for (var product = 1; product <= settings.products(); product++) {
            var id =
                    apis.getFirst().createProduct("lab carts " + label + " " + product, settings.initialStock(), PRICE);
            initialStock.put(id, settings.initialStock());
        }
        var shapes = CartShapes.of(List.copyOf(initialStock.keySet()), carts, settings.lines());
        var users = Orders.buyers(carts);
        progress.phase(label + " prepare", carts);
        var placed = Orders.place(
                apis, carts, (api, index) -> api.createCart(users.get(index), lines(shapes.get(index))), progress);
        return new Prepared(initialStock, users, placed);
    }

    /** Releases the checkouts and waits until the database has decided every cart that can be. */
    private Watched checkOut(String strategy, String label, Prepared prepared) {
        var carts = prepared.carts();
        progress.phase(label + " checkout", carts.size());
        try (var watch = new DecisionWatch(database.dataSource(), carts, POLL)) {
            var burst = BurstExperiment.release(
                    target, carts, prepared.users(), apiName(strategy), null, () -> {}, progress);
            var undecided = IntStream.range(0, carts.size())
                    .filter(burst::refused)
                    .mapToObj(carts::get)
                    .collect(Collectors.toSet());
            progress.phase(label + " waiting for final", carts.size());
            var seen = watch.await(
                    undecided, System.nanoTime() + settings.finalTimeout().toNanos());
            return new Watched(burst, undecided, seen);
        }
    }

    /**
     * Each checkout as the lab saw it: decided when the answer came, for an answer that carries the decision;
     * otherwise when {@code decisions} first had it (the saga's results, or the database's state for a checkout whose
     * answer the lab did not get).
     */
    private static List<BurstFigures.Checkout> checkouts(Burst burst, List<UUID> carts, Map<UUID, Long> decisions) {
        return IntStream.range(0, carts.size())
                .mapToObj(index -> {
                    var status = burst.statuses()[index];
                    var answeredAt = burst.answeredAt()[index];
                    var decidedAt = DECIDED.equals(status) ? Long.valueOf(answeredAt) : decisions.get(carts.get(index));
                    return new BurstFigures.Checkout(answeredAt, status, decidedAt);
                })
                .toList();
    }

    private SequencedMap<UUID, Integer> lines(List<UUID> products) {
        var lines = new LinkedHashMap<UUID, Integer>();
        products.forEach(product -> lines.put(product, settings.quantity()));
        return lines;
    }
}
