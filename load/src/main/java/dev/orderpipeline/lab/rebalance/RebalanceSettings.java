package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The rebalance runs, every scenario under every protocol; the fields are the options of {@code bin/lab rebalance}. */
public record RebalanceSettings(
        List<String> scenarios,
        List<String> protocols,
        int commands,
        int rate,
        KeyDistribution keys,
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
        Require.check(
                !scenarios.isEmpty() && List.of(ADD, KILL, RESTART).containsAll(scenarios),
                "scenarios are add, kill and restart: " + scenarios);
        Require.check(
                !protocols.isEmpty() && List.of("classic", "consumer").containsAll(protocols),
                "protocols are classic and consumer: " + protocols);
        Require.notNegative("the rate", rate);
        Require.positive("commands", commands);
        Require.positive("partitions", partitions);
        Require.check(eventAt > 0 && eventAt < 1, "the event comes between 0 and 1 of the backlog: " + eventAt);
    }
}
