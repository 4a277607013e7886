package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The rebalance runs: every scenario under every protocol.
 *
 * @param scenarios {@code add} (one worker drains, a second starts), {@code kill} (two drain, one is killed) and/or
 *     {@code restart} (two drain, one is killed and started again at once under its name)
 * @param protocols {@code classic} and/or {@code consumer} ({@code group.protocol} of the workers' consumers)
 * @param commands checkouts per run
 * @param rate commands sent per second, steadily, while the workers consume (0: all at once, a backlog)
 * @param keys how they spread over products ({@code uniform:N} gives every partition work)
 * @param partitions partitions of the command topic
 * @param eventAt share of the backlog committed when the worker is added or killed
 * @param warmup checkouts drained untimed once the first workers joined (JIT, connections); 0 for none
 * @param interval how often offsets and owners are read (the pause's resolution)
 * @param timeout a run fails if its lag is not zero by then
 */
public record RebalanceSettings(
        List<String> scenarios,
        List<String> protocols,
        int commands,
        int rate,
        String keys,
        int partitions,
        double eventAt,
        int warmup,
        Duration interval,
        Duration timeout) {

    static final String ADD = "add";
    static final String KILL = "kill";
    static final String RESTART = "restart";

    public RebalanceSettings {
        scenarios =
                scenarios.stream().map(s -> s.strip().toLowerCase(Locale.ROOT)).toList();
        protocols =
                protocols.stream().map(p -> p.strip().toLowerCase(Locale.ROOT)).toList();
        if (scenarios.isEmpty() || !List.of(ADD, KILL, RESTART).containsAll(scenarios)) {
            throw new IllegalArgumentException("scenarios are add, kill and restart: " + scenarios);
        }
        if (protocols.isEmpty() || !List.of("classic", "consumer").containsAll(protocols)) {
            throw new IllegalArgumentException("protocols are classic and consumer: " + protocols);
        }
        keys = KeyDistribution.parse(keys).label();
        if (rate < 0) {
            throw new IllegalArgumentException("the rate must not be negative: " + rate);
        }
        if (commands < 1 || partitions < 1) {
            throw new IllegalArgumentException("commands and partitions must be positive");
        }
        if (!(eventAt > 0 && eventAt < 1)) {
            throw new IllegalArgumentException("the event comes between 0 and 1 of the backlog: " + eventAt);
        }
    }

    public KeyDistribution distribution() {
        return KeyDistribution.parse(keys);
    }
}
