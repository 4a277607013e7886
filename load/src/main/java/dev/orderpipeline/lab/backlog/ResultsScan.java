package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads what the workers published on {@code checkout.results} during a run, after it: between the end offsets
 * noted before the run and those after it. Nothing consumes the topic for the lab while the run goes on, so the
 * reading costs the run no CPU.
 */
public final class ResultsScan {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration POLL = Duration.ofMillis(500);

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
        long results = 0;
        long duplicates = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        try (var consumer = ResultsListener.consumer(
                bootstrapServers,
                "orderpipeline-lab-results-scan",
                Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000"))) {
            var partitions = to.keySet().stream()
                    .map(partition -> new TopicPartition(Topics.CHECKOUT_RESULTS, partition))
                    .toList();
            consumer.assign(partitions);
            partitions.forEach(partition -> consumer.seek(partition, from.getOrDefault(partition.partition(), 0L)));
            var deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!reached(consumer, partitions, to)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("could not read checkout.results up to " + to + " within 5 min");
                }
                for (var record : consumer.poll(POLL)) {
                    var position = record.offset() < to.getOrDefault(record.partition(), Long.MAX_VALUE)
                            ? index.get(ResultsListener.orderId(record))
                            : null;
                    if (position == null) {
                        continue;
                    }
                    results++;
                    if (JSON.readTree(record.value()).path("duplicate").asBoolean(false)) {
                        duplicates++;
                    }
                    first = Math.min(first, record.timestamp());
                    last = Math.max(last, record.timestamp());
                    if (!seen.get(position)) {
                        seen.set(position);
                        if (endToEnd != null) {
                            endToEnd.recordNanos(
                                    TimeUnit.MILLISECONDS.toNanos(record.timestamp() - sentAtMillis[position]));
                        }
                    }
                }
            }
        }
        return new Summary(
                results,
                duplicates,
                seen.cardinality(),
                first == Long.MAX_VALUE ? 0 : first,
                last,
                endToEnd == null ? null : endToEnd.summary());
    }

    private static boolean reached(
            KafkaConsumer<String, String> consumer, List<TopicPartition> partitions, Map<Integer, Long> to) {
        return partitions.stream()
                .allMatch(partition -> consumer.position(partition) >= to.getOrDefault(partition.partition(), 0L));
    }
}
