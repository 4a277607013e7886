package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Database;
import dev.orderpipeline.lab.pipeline.Orders;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.Target;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a carts compare: per strategy a fresh set of products, {@code parallel} buyers with a cart each (prepared,
 * not timed; pairs of carts list the same products in opposite orders), all checkouts released at once and spread
 * round-robin over the API replicas, then a wait until the database has every cart final, then its verdict.
 */
public final class CartsExperiment {

    /** The answers after which a cart will become final without the lab doing anything more. */
    private static final List<String> ANSWERED = List.of("200", "202", "409");

    /** The answer of a strategy that decided in the request. */
    private static final String DECIDED = "200";

    /** The saga's answer: the command is on its way, the worker decides. */
    private static final String ACCEPTED = "202";

    private static final Logger log = LoggerFactory.getLogger(CartsExperiment.class);
    private static final BigDecimal PRICE = new BigDecimal("10.00");
    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration RESULTS_GRACE = Duration.ofSeconds(10);

    private final Target target;
    private final Database database;
    private final CartsSettings settings;
    private final Progress progress;
    private final @Nullable ResultsListener results;

    /**
     * @param results the lab's consumer of checkout results, for the saga's decision times; {@code null}: the
     *     database is polled for them instead
     * @throws IllegalArgumentException when the lab has no access to the target's database: carts are judged there
     */
    public CartsExperiment(
            Target target, CartsSettings settings, Progress progress, @Nullable ResultsListener results) {
        var database = target.database();
        if (database == null) {
            throw new IllegalArgumentException("carts are judged in the database: give --database-url with --api-url");
        }
        this.target = target;
        this.database = database;
        this.settings = settings;
        this.progress = progress;
        this.results = results;
    }

    /** The runs, and the strategies the API does not offer. */
    public record Outcome(List<CartRun> runs, List<String> skipped) {}

    public Outcome run() {
        var skipped = new ArrayList<String>();
        var runs = new ArrayList<CartRun>();
        for (var strategy : settings.strategies()) {
            if (!target.apis().getFirst().supportsStrategy(CartStrategies.checkoutName(strategy))) {
                progress.note("Skipping " + strategy + ": order-api does not know it (400 unknown-strategy)");
                skipped.add(strategy);
                continue;
            }
            if (settings.warmup() > 0) {
                var warmup = runOne(strategy, strategy + " warm-up", settings.warmup());
                progress.note(String.format(
                        Locale.ROOT,
                        "%s warm-up: %d carts (not reported)",
                        strategy,
                        warmup.burst().carts()));
            }
            var run = runOne(strategy, strategy, settings.parallel());
            progress.note(String.format(
                    Locale.ROOT,
                    "%s: completed %d, rejected %d, %.1f carts/s, p99 %.0f ms, aborted %s, deadlocks %s%s",
                    strategy,
                    run.invariants().outcomes().completed(),
                    run.invariants().outcomes().rejected(),
                    run.burst().decidedPerSecond(),
                    run.burst().toDecision().p99Ms(),
                    run.abortedTransactions(),
                    run.deadlocks(),
                    run.invariants().holds()
                            ? ""
                            : "  VIOLATED: "
                                    + String.join("; ", run.invariants().violations())));
            runs.add(run);
        }
        return new Outcome(runs, skipped);
    }

    private CartRun runOne(String strategy, String label, int carts) {
        var apis = target.apis();
        var tag = UUID.randomUUID().toString().substring(0, 8);
        var initialStock = new LinkedHashMap<UUID, Integer>();
        for (var product = 1; product <= settings.products(); product++) {
            var id =
                    apis.getFirst().createProduct("lab carts " + label + " " + product, settings.initialStock(), PRICE);
            initialStock.put(id, settings.initialStock());
        }
        var shapes = CartShapes.of(List.copyOf(initialStock.keySet()), carts, settings.lines());
        var users = new ArrayList<String>(carts);
        for (var buyer = 0; buyer < carts; buyer++) {
            users.add("lab-" + tag + "-" + buyer);
        }
        progress.phase(label + " prepare", carts);
        var orders = Orders.place(
                apis, carts, (api, index) -> api.createCart(users.get(index), lines(shapes.get(index))), progress);

        var saga = CartStrategies.isSaga(strategy);
        var listener = saga ? results : null;
        if (listener != null) {
            listener.track(orders);
        }
        var deadlocks = new Deadlocks(database.dataSource());
        var deadlocksBefore = deadlocks.settled();
        var abortedBefore = AbortedTransactions.count(apis, strategy);

        progress.phase(label + " checkout", carts);
        var checkoutName = CartStrategies.checkoutName(strategy);
        var release = Release.of(
                carts,
                index ->
                        apis.get(index % apis.size()).checkout(orders.get(index), users.get(index), checkoutName, null),
                progress);

        long unanswered = 0;
        long accepted = 0;
        for (var status : release.statuses()) {
            unanswered += ANSWERED.contains(status) ? 0 : 1;
            accepted += ACCEPTED.equals(status) ? 1 : 0;
        }
        progress.phase(label + " waiting for final", carts);
        var deadline = System.nanoTime() + settings.finalTimeout().toNanos();
        var cartOrders = new CartOrders(database.dataSource());
        var seenFinal = cartOrders.awaitDecided(orders, unanswered, deadline, POLL);
        var finalTimedOut = carts - seenFinal.size() > unanswered;
        Map<UUID, Long> heard = Map.of();
        if (listener != null) {
            awaitResults(listener, accepted, Math.max(deadline, System.nanoTime() + RESULTS_GRACE.toNanos()));
            heard = listener.receivedAt();
        }

        var checkouts = new ArrayList<CartCheckout>(carts);
        long missing = 0;
        for (var index = 0; index < carts; index++) {
            var order = orders.get(index);
            var status = release.statuses()[index];
            var answeredAt = release.answeredAt()[index];
            Long decidedAt;
            if (!saga) {
                decidedAt = DECIDED.equals(status) ? answeredAt : null;
            } else if (listener != null) {
                decidedAt = heard.get(order);
            } else {
                decidedAt = seenFinal.get(order);
            }
            if (decidedAt == null && seenFinal.containsKey(order)) {
                missing++;
            }
            checkouts.add(new CartCheckout(answeredAt, status, decidedAt));
        }
        var burst = BurstFigures.of(release.releasedAt(), checkouts);
        var deadlocksDuring = deadlocks.settled() - deadlocksBefore;
        var abortedAfter = AbortedTransactions.count(apis, strategy);
        var abortedDuring = abortedBefore == null || abortedAfter == null ? null : abortedAfter - abortedBefore;
        var invariants = new CartInvariants(ProductVerdicts.read(database, initialStock), cartOrders.outcomes(orders));
        if (finalTimedOut) {
            log.warn(
                    "{}: {} carts still open after {} s; the report counts them as not final",
                    label,
                    invariants.outcomes().notFinal(),
                    settings.finalTimeout().toSeconds());
        }
        return new CartRun(
                strategy,
                List.copyOf(initialStock.keySet()),
                burst,
                abortedDuring,
                deadlocksDuring,
                missing,
                finalTimedOut,
                invariants);
    }

    private SequencedMap<UUID, Integer> lines(List<UUID> products) {
        var lines = new LinkedHashMap<UUID, Integer>();
        products.forEach(product -> lines.put(product, settings.quantity()));
        return lines;
    }

    private static void awaitResults(ResultsListener listener, long expected, long deadline) {
        while (listener.received() < expected && System.nanoTime() - deadline < 0) {
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
