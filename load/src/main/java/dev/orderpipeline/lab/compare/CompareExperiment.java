package dev.orderpipeline.lab.compare;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.Experiment;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.pipeline.Burst;
import dev.orderpipeline.lab.pipeline.Orders;
import dev.orderpipeline.lab.pipeline.PreparedCheckout;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.ReportHeader;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a compare: per strategy (and repetition) fresh products, {@code parallel} buyers with an order or a cart each
 * (prepared, not timed), all checkouts released at once by a latch and spread round-robin over the API replicas,
 * then a wait until the database has every order final, then the database's verdict. Kafka's and the saga's
 * decisions are timed by their records on checkout.results, read after the run.
 */
public record CompareExperiment(StackTarget target, CompareSettings settings, Progress progress)
        implements Experiment<CompareSettings, StrategyRun> {

    private static final Logger log = LoggerFactory.getLogger(CompareExperiment.class);
    private static final BigDecimal PRICE = new BigDecimal("10.00");
    private static final Duration POLL = Duration.ofMillis(50);

    /** The carts workload's strategies: the pipeline's saga, the lab's row locks sorted by id and in line order. */
    static final List<String> CART_STRATEGIES = List.of("saga", "cart-for-update", "cart-for-update-unsorted");

    /** The production checkout of a cart: a reservation saga over the products' partitions, the pipeline's. */
    static final String SAGA = "saga";

    /** The pipeline's name for the saga; the lab's cart strategies by their own. */
    static String apiName(String strategy) {
        return SAGA.equals(strategy) ? Strategies.KAFKA : strategy;
    }

    /** The strategies the API offers, each run {@code repetitions} times, the others skipped; the header after them. */
    public CompareReport run(Supplier<ReportHeader> header) {
        var skipped = new ArrayList<SkippedStrategy>();
        var offered = Strategies.offered(
                target.apis().getFirst(),
                settings.strategies(),
                CompareExperiment::apiName,
                progress,
                strategy -> skipped.add(new SkippedStrategy(strategy, Strategies.UNKNOWN)));
        var runs = Experiment.run(this, offered, settings.repetitions(), "strategy", progress);
        return new CompareReport(header.get(), settings, runs, skipped);
    }

    @Override
    public List<CompareSettings> cells() {
        return List.of(settings);
    }

    @Override
    public String label(String strategy, CompareSettings cell, int repetition) {
        return settings.repetitions() == 1 ? strategy : strategy + " #" + repetition;
    }

    /**
     * The same run, as large as asked: as many units as the run has, at most half as many as buyers, so that it both
     * sells and refuses and the refusals' code is as warm as the sales' when the run is a flash sale.
     */
    @Override
    public void warmUp(String strategy, CompareSettings cell) {
        var buyers = Math.min(settings.warmup(), settings.parallel());
        if (buyers > 0) {
            var units = Math.max(1, Math.min(buyers / 2, settings.initialStock()));
            var run = runOne(strategy, strategy + " warm-up", units, buyers);
            progress.note(String.format(Locale.ROOT, "%s: %d checkouts (not reported)", run.label(), buyers));
        }
    }

    @Override
    public StrategyRun run(String strategy, CompareSettings cell, int repetition, String label) {
        return runOne(strategy, label, settings.initialStock(), settings.parallel());
    }

    @Override
    public String describe(StrategyRun run) {
        return String.format(
                Locale.ROOT,
                "%s: completed %d, stock left %d, drift %d, %.1f s%s",
                run.label(),
                run.invariants().completed(),
                run.invariants().stockLeft(),
                run.invariants().drift(),
                run.elapsedSeconds(),
                Cells.violatedNote(run.invariants()));
    }

    private StrategyRun runOne(String strategy, String label, int initialStock, int parallel) {
        var apis = target.apis();
        var database = target.database();
        var stock = new LinkedHashMap<UUID, Integer>();
        for (var product = 1; product <= settings.products(); product++) {
            stock.put(
                    apis.getFirst().createProduct("lab compare " + label + " " + product, initialStock, PRICE),
                    initialStock);
        }
        var products = List.copyOf(stock.keySet());

        progress.phase(label + " prepare", parallel);
        var users = Orders.buyers(parallel);
        var orders = place(products, users);
        var apiStrategy = apiName(strategy);
        var resultsFrom = Strategies.isAsynchronous(apiStrategy)
                ? ResultsScan.endOffsets(target.bootstrapServers(), Topics.CHECKOUT_RESULTS)
                : null;
        var carts = settings.carts();
        var deadlocksBefore = carts == null ? 0 : database.deadlocks();
        var abortedBefore = carts == null ? null : AbortedTransactions.count(apis, strategy);
        progress.phase(label + " checkout", parallel);
        // tokens signed and requests written before the release, so that the burst's client spends its CPU on the
        // connections alone; round-robin over the replicas
        var checkouts = new ArrayList<PreparedCheckout>(parallel);
        for (var index = 0; index < parallel; index++) {
            checkouts.add(apis.get(index % apis.size())
                    .prepareCheckout(orders.get(index), users.get(index), apiStrategy, settings.delayMillis()));
        }
        var sampler = new AtomicReference<ResourceSampler>();
        var burst = Burst.release(
                parallel,
                index -> checkouts.get(index).send(),
                () -> sampler.set(target.sample(ResourceSampler.DEFAULT_INTERVAL, List.of())),
                progress);

        progress.phase(label + " waiting for final", parallel);
        var ending = awaitEnd(resultsFrom, products, orders, burst);
        var resources = sampler.get().stop();

        var invariants =
                RunVerdict.of(database.invariants(stock), carts == null ? 1 : carts.lines(), neverCheckedOut(burst));
        var elapsed = Math.max(ending.at() - burst.releasedAt(), 1) / 1e9;
        var decided = invariants.completed() + invariants.rejected();
        if (ending.timedOut()) {
            log.warn(
                    "{}: {} orders still open after {} s; the report counts them as not final",
                    label,
                    invariants.notFinal(),
                    settings.finalTimeout().toSeconds());
        }
        return new StrategyRun(
                label,
                strategy,
                products,
                invariants,
                round(elapsed, 3),
                round(decided / elapsed, 1),
                burst.latency(),
                ending.toFinal(),
                ending.resultsMissing(),
                ending.timedOut(),
                burst.statusCounts(),
                resources,
                CheckoutCost.of(resources, decided),
                carts == null ? null : cartFigures(strategy, abortedBefore, deadlocksBefore));
    }

    /** An order of the first product for each buyer, or a cart of several in the shape of the workload. */
    private List<UUID> place(List<UUID> products, List<String> users) {
        var carts = settings.carts();
        if (carts == null) {
            return Orders.create(target.apis(), products.getFirst(), users, 1, progress);
        }
        var shapes = CartShapes.of(products, users.size(), carts.lines());
        return Orders.place(
                target.apis(),
                users.size(),
                (api, index) -> {
                    var lines = new LinkedHashMap<UUID, Integer>();
                    shapes.get(index).forEach(product -> lines.put(product, 1));
                    return api.createCart(users.get(index), lines);
                },
                progress);
    }

    private StrategyRun.CartFigures cartFigures(String strategy, @Nullable Long abortedBefore, long deadlocksBefore) {
        var abortedAfter = AbortedTransactions.count(target.apis(), strategy);
        return new StrategyRun.CartFigures(
                abortedBefore == null || abortedAfter == null ? null : abortedAfter - abortedBefore,
                target.database().deadlocks() - deadlocksBefore);
    }

    /**
     * How a run ended: when, whether orders were still open at the deadline, the time to each final outcome (the
     * answer for a synchronous strategy, the result on checkout.results for kafka and the saga) and their results
     * missing.
     */
    private record Ending(
            long at,
            boolean timedOut,
            @Nullable Latency toFinal,
            @Nullable Long resultsMissing) {}

    /**
     * Checkouts answered otherwise than 2xx (sold out at the door, shed, failed) or not at all: their orders stay open
     * unless the server accepted one whose answer was lost, so at most this many open orders were never accepted.
     */
    private static long neverCheckedOut(Burst burst) {
        return burst.unanswered() + burst.soldOut();
    }

    /** Waits for every order to be final; {@code resultsFrom}: the results topic's end before an asynchronous run. */
    private Ending awaitEnd(
            @Nullable Map<Integer, Long> resultsFrom, List<UUID> products, List<UUID> orders, Burst burst) {
        var database = target.database();
        var staysOpen = burst.staysOpen();
        var deadline = System.nanoTime() + settings.finalTimeout().toNanos();
        LongSupplier open = settings.carts() == null
                ? () -> database.ordersNotFinal(products)
                : () -> database.cartsNotFinal(products);
        var timedOut = database.awaitFinal(open, staysOpen, deadline, POLL) > staysOpen;
        var finalSeen = System.nanoTime();
        if (resultsFrom == null) {
            return new Ending(burst.lastAnswer(), timedOut, burst.latency(), null);
        }
        var accepted = burst.statusCounts().getOrDefault("202", 0L);
        var index = new HashMap<UUID, Integer>();
        for (var order = 0; order < orders.size(); order++) {
            index.put(orders.get(order), order);
        }
        var decisions = ResultsScan.read(
                target.bootstrapServers(),
                resultsFrom,
                index,
                accepted,
                Math.max(deadline, System.nanoTime() + ResultsScan.GRACE.toNanos()),
                order -> ResultsScan.epochNanos(burst.startedAt()[order]));
        var end = Math.max(burst.lastAnswer(), decisions.lastAtNanoTime());
        var missing = Math.max(0, accepted - decisions.orders());
        return new Ending(Math.max(end, missing > 0 ? finalSeen : 0), timedOut, decisions.endToEnd(), missing);
    }

    private static double round(double value, int decimals) {
        var scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
