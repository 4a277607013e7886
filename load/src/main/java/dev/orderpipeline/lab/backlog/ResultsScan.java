package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads what the workers published on {@code checkout.results} during a run, after it: between the end offsets
 * noted before the run and those after it. Nothing consumes the topic for the lab while the run goes on, so the
 * reading costs the run no CPU.
 */
public final class ResultsScan {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ResultsScan() {}

    /**
     * What the results say: {@code results} records of the run's orders (a redelivered command publishes its result
     * again), {@code duplicates} flagged so (deliveries the idempotency table absorbed), {@code orders} with a result,
     * the wall-clock timestamps of the first and the last result (0 when none), and from each command's send to its
     * first result ({@code null} when the send times were not kept).
     */
    public record Summary(
            long results,
            long duplicates,
            long orders,
            long firstAtMillis,
            long lastAtMillis,
            @Nullable Latency endToEnd) {

        /** Results per second between the first and the last: the rate the workers decided at. */
        public double decidedPerSecond() {
            return lastAtMillis > firstAtMillis ? orders * 1000.0 / (lastAtMillis - firstAtMillis) : 0;
        }
    }

    /**
     * Reads results from {@code from} to {@code to} (end offsets per partition of {@code checkout.results}) and keeps
     * those of the backlog's orders; {@code sentAtMillis} holds per order index the command's record timestamp, or
     * is empty.
     */
    public static Summary read(
            String bootstrapServers,
            Map<Integer, Long> from,
            Map<Integer, Long> to,
            Backlog backlog,
            long[] sentAtMillis) {
        var index = backlog.indexByOrder();
        var seen = new BitSet(backlog.size());
        var endToEnd = sentAtMillis.length == backlog.size() ? new LatencyRecorder() : null;
        var tally = new Object() {
            long results;
            long duplicates;
            long first = Long.MAX_VALUE;
            long last;
        };
        ResultsListener.read(bootstrapServers, Topics.CHECKOUT_RESULTS, from, to, record -> {
            var position = index.get(ResultsListener.orderId(record));
            if (position == null) {
                return;
            }
            tally.results++;
            if (JSON.readTree(record.value()).path("duplicate").asBoolean(false)) {
                tally.duplicates++;
            }
            tally.first = Math.min(tally.first, record.timestamp());
            tally.last = Math.max(tally.last, record.timestamp());
            if (!seen.get(position)) {
                seen.set(position);
                if (endToEnd != null) {
                    endToEnd.recordNanos(TimeUnit.MILLISECONDS.toNanos(record.timestamp() - sentAtMillis[position]));
                }
            }
        });
        return new Summary(
                tally.results,
                tally.duplicates,
                seen.cardinality(),
                tally.first == Long.MAX_VALUE ? 0 : tally.first,
                tally.last,
                endToEnd == null ? null : endToEnd.summary());
    }
}
