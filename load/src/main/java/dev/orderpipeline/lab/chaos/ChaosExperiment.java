package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.FaultRun.Decoys;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.Orders;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs one chaos experiment: prepares the orders, loads, injects the faults with a recovery after each, judges. */
public final class ChaosExperiment {

    private static final Logger log = LoggerFactory.getLogger(ChaosExperiment.class);
    private static final BigDecimal PRICE = new BigDecimal("10.00");
    /** Decoy orders are named by poison records; their product's stock must not move. */
    private static final int DECOY_STOCK = 1000;
    /** A checkout accepted this long ago and still undecided means the pipeline has not caught up yet. */
    private static final Duration OWED_AFTER = Duration.ofSeconds(2);

    private static final Duration POLL = Duration.ofMillis(500);
    /** How long after the final deadline the lab keeps waiting, to say how late a late checkout was. */
    private static final Duration LATE_GRACE = Duration.ofSeconds(60);

    /** The load kept prepared ahead of the arrivals outside the fault windows. */
    private static final Duration RESERVE = Duration.ofSeconds(20);

    private final StackTarget target;
    private final ChaosSettings settings;
    private final Progress progress;
    private final String runTag = UUID.randomUUID().toString().substring(0, 8);
    private final List<String> notes = new ArrayList<>();
    private final Random random = new Random(runTag.hashCode());
    /** Held while orders are prepared during the load and through each fault window. */
    private final ReentrantLock preparing = new ReentrantLock();

    public ChaosExperiment(StackTarget target, ChaosSettings settings, Progress progress) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
    }

    public ChaosRun run() {
        var database = new ChaosDatabase(Objects.requireNonNull(target.database(), "the stack has a database"));
        var initialStock = new LinkedHashMap<UUID, Integer>();
        for (var stock : settings.stocks()) {
            var name = "lab chaos " + runTag + " #" + (initialStock.size() + 1);
            initialStock.put(target.apis().getFirst().createProduct(name, stock, PRICE), stock);
        }
        var products = List.copyOf(initialStock.keySet());
        var decoys = settings.faults().contains(FaultKind.POISON) ? prepareDecoys() : null;
        var total = settings.ordersToPrepare();
        progress.phase("prepare " + total + " orders", total);
        var orders = prepare(products, 0, total, progress);
        try (var topics = new GroupWatch(target.bootstrapServers())) {
            var clock = RunClock.startingNow();
            var run = new FaultRun(target.stack(), settings, clock, runTag, topics, database, products, decoys);
            var load = new ChaosLoad(target.apis(), orders, settings, clock, progress);
            List<FaultWindow> faults;
            try (var running = load.start()) {
                var topUp = Thread.ofVirtual().name("chaos-top-up").start(() -> topUp(running, products));
                progress.phase("warm-up", 0);
                FaultRun.pause(settings.warmup());
                faults = inject(run, running);
                running.stop();
                topUp.interrupt();
                finish(run, running, faults);
            }
            progress.phase("reading the database and the topics", 0);
            return ChaosJudge.judge(evidence(run, initialStock, load, faults));
        }
    }

    private List<FaultWindow> inject(FaultRun run, ChaosLoad load) {
        var kinds = settings.faults();
        var faults = new ArrayList<FaultWindow>();
        for (var index = 0; index < kinds.size(); index++) {
            var kind = kinds.get(index);
            progress.item("fault", index + 1, kinds.size(), kind.label());
            for (var number = 1; number <= kind.windows(settings); number++) {
                FaultWindow window;
                preparing.lock();
                try {
                    prepareFor(load, run.products(), kind.plannedWindow(settings));
                    progress.phase(kind.windowName(number), 0);
                    window = run.carryOut(kind, number);
                } finally {
                    preparing.unlock();
                }
                faults.add(window);
                recover(window, load, run.database());
            }
        }
        return faults;
    }

    private void finish(FaultRun run, ChaosLoad load, List<FaultWindow> faults) {
        if (load.ranDry() > 0) {
            notes.add(load.ranDry() + " arrivals found none of the prepared orders left (preparing more fell"
                    + " behind): the load was thinner there.");
        }
        if (load.dropped() > 0) {
            notes.add(load.dropped() + " arrivals were dropped: as many first attempts as --max-in-flight allows were"
                    + " on the wire.");
        }
        progress.phase("settling: retries and the last decisions", 0);
        if (!load.awaitQuiet(Duration.ofMinutes(3))) {
            notes.add(load.pending() + " checkouts were still in flight or waiting to be retried 3 minutes after the"
                    + " load stopped.");
        }
        var faultsEnd = faults.stream()
                .mapToDouble(FaultWindow::end)
                .max()
                .orElse(run.clock().now());
        awaitDecisions(load, run.database(), run.clock(), faultsEnd);
    }

    private ChaosJudge.Evidence evidence(
            FaultRun run, Map<UUID, Integer> initialStock, ChaosLoad load, List<FaultWindow> faults) {
        var database = run.database();
        var decoys = run.decoys();
        var orders = load.orders();
        var decidedAt = new HashMap<UUID, Double>();
        database.decisions(run.products())
                .forEach((order, millis) -> decidedAt.put(order, run.clock().secondsOfEpochMillis(millis)));
        var attempts = load.attempts();
        var retried = attempts.stream()
                .filter(attempt -> attempt.number() > 1)
                .map(attempt -> orders.get(attempt.order()).orderId())
                .distinct()
                .toList();
        var poison = faults.stream()
                .filter(fault -> fault.kind() == FaultKind.POISON)
                .findFirst();
        var found = TopicEvidence.read(
                run,
                orders.stream().map(PreparedOrder::orderId).collect(Collectors.toSet()),
                decidedAt.keySet(),
                poison.map(fault -> TopicFaults.perKind(settings.poisonRecords()))
                        .orElse(Map.of()),
                poison.map(FaultWindow::start).orElse(0.0));
        return new ChaosJudge.Evidence(
                settings,
                orders,
                attempts,
                faults,
                load.arrivalsEndedAt(),
                decidedAt,
                database.books(initialStock),
                database.idempotency(run.products()),
                database.repeatedEffects(retried),
                found.poison(),
                found.topics(),
                decoys == null ? null : database.decoy(decoys.product(), DECOY_STOCK),
                database.carts(orders.stream()
                        .filter(PreparedOrder::isCart)
                        .map(PreparedOrder::orderId)
                        .toList()),
                notes);
    }

    private Decoys prepareDecoys() {
        var product = target.apis().getFirst().createProduct("lab chaos " + runTag + " decoy", DECOY_STOCK, PRICE);
        var count = Math.max(1, settings.poisonRecords() / PoisonKind.values().length);
        progress.phase("prepare " + count + " decoy orders", count);
        var users = IntStream.range(0, count)
                .mapToObj(index -> "chaos-" + runTag + "-decoy-" + index)
                .toList();
        var ids = Orders.create(target.apis(), product, users, 1, progress);
        return new Decoys(
                product,
                IntStream.range(0, count)
                        .mapToObj(index -> new PreparedOrder(ids.get(index), 0, users.get(index)))
                        .toList());
    }

    /**
     * Orders {@code from} to {@code from + count - 1} of the load: carts spread evenly, the single-product orders
     * given to the products in turn, so that each product has orders of its own.
     */
    private List<PreparedOrder> prepare(List<UUID> products, int from, int count, Progress progress) {
        var share = settings.hasCarts() ? settings.cartShare() : 0.0;
        var lines = new ArrayList<List<Integer>>();
        for (var index = from; index < from + count; index++) {
            var singlesBefore = index - (int) Math.floor(index * share);
            lines.add(
                    PreparedOrder.isCart(index, share)
                            ? PreparedOrder.lines(random, products.size())
                            : List.of(singlesBefore % products.size()));
        }
        var ids = Orders.place(
                target.apis(),
                count,
                (api, index) -> {
                    var units = new LinkedHashMap<UUID, Integer>();
                    lines.get(index).forEach(product -> units.put(products.get(product), 1));
                    return units.size() > 1
                            ? api.createCart(user(from + index), units)
                            : api.createOrder(
                                    user(from + index), units.firstEntry().getKey(), 1);
                },
                progress);
        return IntStream.range(0, count)
                .mapToObj(index -> new PreparedOrder(
                        ids.get(index),
                        lines.get(index).getFirst(),
                        user(from + index),
                        lines.get(index).size() > 1 ? lines.get(index) : List.of()))
                .toList();
    }

    private String user(int index) {
        return "chaos-" + runTag + "-" + index;
    }

    /**
     * Orders are prepared while the load runs, but never during a fault's window (order creation would meet the fault:
     * a frozen worker's locks, the API's pool): before each window enough for its plan, and during the warm-up and the
     * recoveries a reserve of {@link #RESERVE}, so that faults and recoveries longer than planned still run under load.
     */
    private void topUp(ChaosLoad load, List<UUID> products) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                if (preparing.tryLock()) {
                    try {
                        prepareFor(load, products, RESERVE);
                    } finally {
                        preparing.unlock();
                    }
                }
                Thread.sleep(Duration.ofSeconds(1));
            } catch (InterruptedException ex) {
                return;
            }
        }
    }

    /** Enough orders left for {@code length} of load with the planning margin; a failed batch is tried again later. */
    private void prepareFor(ChaosLoad load, List<UUID> products, Duration length) {
        var needed = (long) Math.ceil(settings.rate() * length.toMillis() / 1000.0 * ChaosSettings.ORDER_MARGIN);
        try {
            if (load.left() < needed) {
                load.add(prepare(products, load.size(), (int) (needed - load.left()), Progress.silent()));
            }
        } catch (IllegalStateException ex) {
            log.warn("Could not prepare more orders for the load: {}", ex.getMessage());
        }
    }

    /** After a fault: the recovery time, then until the checkouts accepted 2 s before are decided, up to a limit. */
    private void recover(FaultWindow window, ChaosLoad load, ChaosDatabase database) {
        progress.note(String.format(
                Locale.ROOT,
                "%s: %.1f-%.1f s, %s%s",
                window.name(),
                window.start(),
                window.end(),
                window.detail(),
                window.failure() == null ? "" : "; FAILED: " + window.failure()));
        progress.phase(window.name() + ": recovery", 0);
        FaultRun.pause(settings.recovery());
        var undecided = undecidedUntil(load, database, OWED_AFTER, ChaosSettings.CATCH_UP_LIMIT);
        if (undecided > 0) {
            var message = String.format(
                    Locale.ROOT,
                    "After %s the pipeline had not caught up within %d s: %d accepted checkouts were still"
                            + " undecided; the run went on.",
                    window.name(),
                    settings.recovery().plus(ChaosSettings.CATCH_UP_LIMIT).toSeconds(),
                    undecided);
            notes.add(message);
            progress.note(message);
        }
    }

    /**
     * Waits until the checkouts accepted at least {@code age} ago are decided, up to {@code limit}; how many are not
     * (as far as the database could tell: an ask it could not answer is made again).
     */
    private static int undecidedUntil(ChaosLoad load, ChaosDatabase database, Duration age, Duration limit) {
        FaultRun.poll(limit, POLL, () -> {
            load.markDecided(database.decidedAmong(load.acceptedBefore(age)));
            return load.acceptedBefore(age).isEmpty() ? true : null;
        });
        return load.acceptedBefore(age).size();
    }

    /** Waits for every accepted checkout, until well past the deadline so that a late one is measured, not cut off. */
    private void awaitDecisions(ChaosLoad load, ChaosDatabase database, RunClock clock, double faultsEnd) {
        var until = faultsEnd + ChaosSettings.FINAL_DEADLINE.plus(LATE_GRACE).toMillis() / 1000.0;
        var limit = Duration.ofMillis(Math.max(0, Math.round((until - clock.now()) * 1000)));
        var undecided = undecidedUntil(load, database, Duration.ZERO, limit);
        if (undecided > 0) {
            notes.add(undecided + " accepted checkouts were still undecided " + Math.round(until - faultsEnd)
                    + " s after the end of the faults, when the lab stopped waiting.");
        }
    }
}
