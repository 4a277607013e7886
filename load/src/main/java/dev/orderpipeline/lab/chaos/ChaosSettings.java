package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.Require;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * One chaos run: the options of {@link ChaosCommand}, each product's stock 40 % to 88 % of its planned checkouts;
 * {@code groupSession}: the workers' consumer session timeout, which a kill costs and the planned windows allow for.
 */
public record ChaosSettings(
        int rate,
        int products,
        List<FaultKind> faults,
        int workerKills,
        Duration brokerDown,
        Duration databaseDown,
        Duration databaseFault,
        int poisonRecords,
        Duration warmup,
        Duration recovery,
        int maxInFlight,
        double cartShare,
        Duration workerFreeze,
        Duration groupSession) {

    /** Orders prepared beyond the plan: faults and recoveries often take longer than planned. */
    static final double ORDER_MARGIN = 1.3;

    /** How long the pipeline has to catch up after a fault, and a broker killed to rejoin every ISR. */
    static final Duration CATCH_UP_LIMIT = Duration.ofMinutes(2);

    /** How long after the end of the faults (or its 202, if later) every accepted checkout must be final. */
    static final Duration FINAL_DEADLINE = Duration.ofSeconds(30);

    /** Attempts per checkout, the same order each time. */
    static final int MAX_ATTEMPTS = 20;

    /** How long the replay may take to read the topics to their ends. */
    static final Duration REPLAY_LIMIT = Duration.ofMinutes(5);

    /** The consumer groups' session timeout when a report predates the setting: Kafka's default. */
    static final Duration DEFAULT_GROUP_SESSION = Duration.ofSeconds(45);

    public ChaosSettings {
        faults = List.copyOf(faults);
        groupSession = Objects.requireNonNullElse(groupSession, DEFAULT_GROUP_SESSION);
        Require.check(cartShare >= 0 && cartShare <= 1, "cart share must be 0 to 1: " + cartShare);
        Require.check(rate >= 1 && rate <= 10_000, "rate must be 1 to 10000 per second: " + rate);
        Require.check(products >= 1 && products <= 100, "products must be 1 to 100: " + products);
        Require.check(faults.stream().distinct().count() == faults.size(), "each fault once: " + faults);
        Require.check(
                workerKills >= 1 && poisonRecords >= PoisonKind.values().length && maxInFlight >= 1,
                "worker kills and max in flight must be positive and poison records at least "
                        + PoisonKind.values().length);
        for (var duration : List.of(brokerDown, databaseDown, databaseFault, recovery, workerFreeze, groupSession)) {
            Require.check(duration.isPositive(), "durations must be positive: " + duration);
        }
        Require.check(!warmup.isNegative(), "warm-up must not be negative: " + warmup);
    }

    /** Whether the load has carts: a share of them, and two products at least to make one of. */
    public boolean hasCarts() {
        return cartShare > 0 && products >= 2;
    }

    public Duration plannedLoad() {
        return faults.stream().map(kind -> kind.planned(this)).reduce(warmup, Duration::plus);
    }

    public int plannedCheckouts() {
        return (int) Math.ceil(rate * plannedLoad().toMillis() / 1000.0);
    }

    public int ordersToPrepare() {
        return (int) Math.ceil(plannedCheckouts() * ORDER_MARGIN);
    }

    public List<Integer> stocks() {
        var perProduct = plannedCheckouts() / (double) products;
        return IntStream.range(0, products)
                .mapToObj(index -> (int) Math.max(1, Math.round(perProduct * (0.4 + 0.6 * index / products))))
                .toList();
    }
}
