package dev.orderpipeline.lab.group;

import dev.orderpipeline.lab.Require;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The grid of {@code bin/lab group}, its options; counts sorted rising (within a count of partitions the group of an
 * undisturbed cell grows, it is never restarted).
 *
 * @param workerCounts the group's largest size in a cell: add starts one fewer, kill ends with one fewer
 * @param rate commands per second; 0 sends the backlog as fast as one producer can
 */
public record GroupSettings(
        List<Integer> partitionCounts,
        List<Integer> workerCounts,
        List<KeyDistribution> keys,
        List<String> events,
        List<String> protocols,
        int commands,
        int rate,
        int warmup,
        Duration lagInterval,
        Duration timeout) {

    /** The share of the backlog committed when the event fires: the group is steady by then, most of it still to go. */
    static final double EVENT_AT = 0.3;

    static final String NONE = "none";
    static final String ADD = "add";
    static final String KILL = "kill";
    static final String RESTART = "restart";

    public GroupSettings {
        partitionCounts = partitionCounts.stream().distinct().sorted().toList();
        workerCounts = workerCounts.stream().distinct().sorted().toList();
        keys = List.copyOf(keys);
        events = events.stream().map(GroupSettings::name).distinct().toList();
        protocols = protocols.stream().map(GroupSettings::name).distinct().toList();
        Require.check(
                !partitionCounts.isEmpty() && !workerCounts.isEmpty() && !keys.isEmpty(),
                "the grid needs partitions, workers and key distributions");
        Require.check(
                !events.isEmpty() && List.of(NONE, ADD, KILL, RESTART).containsAll(events),
                "events are none, add, kill and restart: " + events);
        Require.check(
                !protocols.isEmpty() && List.of("classic", "consumer").containsAll(protocols),
                "protocols are classic and consumer: " + protocols);
        Require.positive("partitions", partitionCounts.getFirst());
        Require.positive("workers", workerCounts.getFirst());
        Require.positive("commands", commands);
        Require.notNegative("the rate", rate);
        Require.notNegative("warm-up", warmup);
        var counts = workerCounts;
        Require.check(
                events.stream().anyMatch(event -> counts.stream().anyMatch(workers -> runs(event, workers))),
                "add and kill need at least 2 workers: " + workerCounts);
    }

    private static String name(String given) {
        return given.strip().toLowerCase(Locale.ROOT);
    }

    /** Add and kill leave a group of one fewer than the count, which one worker cannot: such cells are left out. */
    private static boolean runs(String event, int workers) {
        return workers > 1 || event.equals(NONE) || event.equals(RESTART);
    }

    /** One cell of the grid. */
    public record Cell(String event, String protocol, int partitions, int workers, KeyDistribution keys) {}

    /** The cells in the order they run: events, protocols, partition counts, worker counts, key distributions. */
    public List<Cell> grid() {
        var cells = new ArrayList<Cell>();
        for (var event : events) {
            for (var protocol : protocols) {
                for (var partitions : partitionCounts) {
                    for (var workers : workerCounts) {
                        if (runs(event, workers)) {
                            keys.forEach(keys -> cells.add(new Cell(event, protocol, partitions, workers, keys)));
                        }
                    }
                }
            }
        }
        return cells;
    }
}
