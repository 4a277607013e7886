package dev.orderpipeline.lab.backlog;

import java.util.Map;
import java.util.TreeMap;

/**
 * The command topic and the consumer group at one moment: per partition, the end offset (what was produced) and the
 * group's committed offset (what the workers have applied and acknowledged), and which member owned it if asked.
 *
 * @param atMillis milliseconds since the run's clock started
 * @param end end offset per partition
 * @param committed committed offset per partition; a partition the group never committed is absent
 * @param owners client id of the member that owned each partition; empty when not asked for or unowned
 */
public record OffsetSample(
        long atMillis, Map<Integer, Long> end, Map<Integer, Long> committed, Map<Integer, String> owners) {

    public OffsetSample {
        end = new TreeMap<>(end);
        committed = new TreeMap<>(committed);
        owners = new TreeMap<>(owners);
    }
}
