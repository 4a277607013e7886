package dev.orderpipeline.lab.backlog;

import java.util.Map;
import java.util.TreeMap;

/**
 * The command topic and the consumer group at one moment, {@code atMillis} since the run's clock started: per
 * partition, the end offset (what was produced), the group's committed offset (what the workers have applied and
 * acknowledged; absent if never committed), and the client id of the member that owned it, if asked.
 */
public record OffsetSample(
        long atMillis, Map<Integer, Long> end, Map<Integer, Long> committed, Map<Integer, String> owners) {

    public OffsetSample {
        end = new TreeMap<>(end);
        committed = new TreeMap<>(committed);
        owners = new TreeMap<>(owners);
    }
}
