package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One chaos run: a sustained open-model load on a few products of limited stock, and the faults injected one after
 * the other while it goes on, each followed by a recovery.
 *
 * @param rate checkouts started per second, on a schedule (open model)
 * @param products hot products the checkouts are spread over, round-robin
 * @param stock units of every product; {@code null} for a share of the planned checkouts that grows from product to
 *     product (40 % to 88 %), so that products sell out in different phases and later checkouts are rejected
 * @param workerKills how many times {@code worker-kill} kills a worker (alternating between the first two)
 * @param databaseDown how long PostgreSQL stays down (and how long {@code database-sessions-killed} goes on)
 * @param databaseFault how long {@code database-read-only} and {@code lock-timeout-storm} last
 * @param poisonRecords records {@code poison} writes, split evenly over the five kinds
 * @param recovery load after each fault before the next one (or the end), at least; longer until the pipeline has
 *     decided every checkout accepted more than two seconds earlier, up to {@code catchUpLimit}
 * @param finalDeadline every accepted checkout must be final this long after the end of the faults
 * @param maxInFlight first attempts in flight at once; arrivals beyond are dropped and counted
 * @param maxAttempts attempts per checkout, the first included, when the API answers 503 or does not answer
 * @param replayLimit how long the replaying worker may take to reach the ends the topics had when it started
 * @param cartShare the share of the prepared orders that are carts of two or three of the hot products (one unit
 *     each, in varying line orders), checked out by the reservation saga; 0 for none (and for reports written before
 *     carts were in the load)
 */
public record ChaosSettings(
        int rate,
        int products,
        @Nullable Integer stock,
        List<FaultKind> faults,
        int workerKills,
        Duration brokerDown,
        Duration databaseDown,
        Duration databaseFault,
        int poisonRecords,
        Duration warmup,
        Duration recovery,
        Duration catchUpLimit,
        Duration finalDeadline,
        int maxInFlight,
        int maxAttempts,
        Duration replayLimit,
        Double cartShare) {

    /** The share of carts in a default run: enough that every fault meets sagas in flight. */
    static final double CART_SHARE = 0.3;

    /** Orders prepared beyond the plan: faults and recoveries often take longer than planned. */
    static final double ORDER_MARGIN = 1.3;

    /** How long the database faults that leave PostgreSQL up last, unless told. */
    static final Duration DATABASE_FAULT = Duration.ofSeconds(20);

    public ChaosSettings {
        faults = List.copyOf(faults);
        // absent from reports written before these faults existed
        databaseFault = Objects.requireNonNullElse(databaseFault, DATABASE_FAULT);
        cartShare = Objects.requireNonNullElse(cartShare, 0.0);
        Require.check(cartShare >= 0 && cartShare <= 1, "cart share must be 0 to 1: " + cartShare);
        Require.check(rate >= 1 && rate <= 10_000, "rate must be 1 to 10000 per second: " + rate);
        Require.check(products >= 1 && products <= 100, "products must be 1 to 100: " + products);
        Require.check(stock == null || stock >= 0, "stock must not be negative: " + stock);
        Require.check(faults.stream().distinct().count() == faults.size(), "each fault once: " + faults);
        Require.check(
                workerKills >= 1 && poisonRecords >= PoisonKind.values().length && maxInFlight >= 1 && maxAttempts >= 1,
                "worker kills, max in flight and max attempts must be positive and poison records at least "
                        + PoisonKind.values().length);
        for (var duration :
                List.of(brokerDown, databaseDown, databaseFault, recovery, catchUpLimit, finalDeadline, replayLimit)) {
            Require.check(duration.isPositive(), "durations must be positive: " + duration);
        }
        Require.check(!warmup.isNegative(), "warm-up must not be negative: " + warmup);
    }

    /**
     * The five faults the pipeline must survive (a worker killed, the broker and PostgreSQL restarted, the command
     * topic replayed, poison records), each after the one before has settled, with the worker restarted under its
     * name and the two database faults that leave the server up (read-only, lock timeouts) after the PostgreSQL
     * restart: about two minutes more.
     */
    public static final List<FaultKind> DEFAULT_FAULTS = List.of(
            FaultKind.WORKER_KILL,
            FaultKind.WORKER_KILL_RESTART,
            FaultKind.BROKER_RESTART,
            FaultKind.DATABASE_RESTART,
            FaultKind.DATABASE_READ_ONLY,
            FaultKind.LOCK_TIMEOUT_STORM,
            FaultKind.REPLAY,
            FaultKind.POISON);

    /**
     * The run docs/reliability.md reports: 150 checkouts/s on 5 products, the default faults in order, 1,000 poison
     * records.
     */
    public static ChaosSettings defaults() {
        return new ChaosSettings(
                150,
                5,
                null,
                DEFAULT_FAULTS,
                3,
                Duration.ofSeconds(10),
                Duration.ofSeconds(15),
                DATABASE_FAULT,
                1000,
                Duration.ofSeconds(20),
                Duration.ofSeconds(15),
                Duration.ofSeconds(120),
                Duration.ofSeconds(30),
                4000,
                20,
                Duration.ofMinutes(5),
                CART_SHARE);
    }

    /** Whether the load has carts: a share of them, and two products at least to make one of. */
    public boolean hasCarts() {
        return cartShare > 0 && products >= 2;
    }

    /** How long the load is planned to run: warm-up, each fault and its recovery. */
    public Duration plannedLoad() {
        return faults.stream().map(kind -> kind.planned(this)).reduce(warmup, Duration::plus);
    }

    public int plannedCheckouts() {
        return (int) Math.ceil(rate * plannedLoad().toMillis() / 1000.0);
    }

    /** Orders to prepare: the plan with a margin. */
    public int ordersToPrepare() {
        return (int) Math.ceil(plannedCheckouts() * ORDER_MARGIN);
    }

    /** The initial stock of each product, in product order. */
    public List<Integer> stocks() {
        var stocks = new ArrayList<Integer>();
        var perProduct = plannedCheckouts() / (double) products;
        for (var index = 0; index < products; index++) {
            if (stock != null) {
                stocks.add(stock);
            } else {
                var share = 0.4 + 0.6 * index / products;
                stocks.add((int) Math.max(1, Math.round(perProduct * share)));
            }
        }
        return stocks;
    }
}
