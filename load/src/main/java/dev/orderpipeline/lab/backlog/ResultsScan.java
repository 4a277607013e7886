package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntToLongFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The lab's one reader of topics, after the fact (no consumer group, nothing committed): above all what the workers
 * published on {@code checkout.results} during a run, read after it from the end offsets noted before it. Nothing
 * consumes the topic for the lab while the run goes on, so the reading costs the run no CPU, and every decision is
 * timed by its result record's timestamp: when the worker produced it.
 */
public final class ResultsScan {

    private static final Logger log = LoggerFactory.getLogger(ResultsScan.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(5);

    /** How long the results of a run's accepted checkouts may still be arriving once the run is over. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    private ResultsScan() {}

    /**
     * What the results say: {@code results} records of the run's orders (a redelivered command publishes its result
     * again), {@code duplicates} flagged so (deliveries the idempotency table absorbed), {@code orders} with a result,
     * the wall-clock timestamps of the first and the last result (0 when none), and from each command's send to its
     * first result ({@code null} when the send times were not given).
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

        /** The last result's timestamp as a {@link System#nanoTime()} reading; 0 when none came. */
        public long lastAtNanoTime() {
            return lastAtMillis == 0 ? 0 : TimeUnit.MILLISECONDS.toNanos(lastAtMillis) - epochNanos(0);
        }
    }

    /** A {@link System#nanoTime()} reading on the clock of the records' timestamps, in nanoseconds since the epoch. */
    public static long epochNanos(long nanoTime) {
        var now = Instant.now();
        return TimeUnit.SECONDS.toNanos(now.getEpochSecond()) + now.getNano() + (nanoTime - System.nanoTime());
    }

    /** End offset per partition of {@code topic} now: where the records of a run that starts now begin. */
    public static Map<Integer, Long> endOffsets(String bootstrapServers, String topic) {
        try (var watch = new GroupWatch(bootstrapServers)) {
            return watch.endOffsets(topic);
        }
    }

    /**
     * Reads the results of the orders {@code index} names (order id to index) from {@code from}, up to the end the
     * topic has now and on until {@code expected} of those orders have a result or {@link System#nanoTime()} passed
     * {@code deadline}: a worker publishes its results after its transaction, so they may lag the database and the
     * group's offsets. {@code sentAt} gives per index when the order's checkout was sent, in {@link #epochNanos}, or
     * is {@code null}.
     */
    public static Summary read(
            String bootstrapServers,
            Map<Integer, Long> from,
            Map<UUID, Integer> index,
            long expected,
            long deadline,
            @Nullable IntToLongFunction sentAt) {
        var seen = new BitSet(index.size());
        var endToEnd = sentAt == null ? null : new LatencyRecorder();
        // the results' timestamps: their count, the first and the last
        var timestamps = new LongSummaryStatistics();
        var duplicates = new LongAdder();
        Consumer<ConsumerRecord<String, String>> each = record -> {
            var position = index.get(orderId(record));
            if (position == null) {
                return;
            }
            timestamps.accept(record.timestamp());
            if (JSON.readTree(record.value()).path("duplicate").asBoolean(false)) {
                duplicates.increment();
            }
            if (!seen.get(position)) {
                seen.set(position);
                if (endToEnd != null && sentAt != null) {
                    endToEnd.recordNanos(
                            TimeUnit.MILLISECONDS.toNanos(record.timestamp()) - sentAt.applyAsLong(position));
                }
            }
        };
        try (var consumer = consumer(bootstrapServers);
                var watch = new GroupWatch(bootstrapServers)) {
            var start = from;
            while (true) {
                var to = watch.endOffsets(Topics.CHECKOUT_RESULTS);
                read(consumer, Topics.CHECKOUT_RESULTS, start, to, each);
                if (seen.cardinality() >= expected || System.nanoTime() - deadline > 0) {
                    break;
                }
                start = to;
                GroupWatch.pause(200);
            }
        }
        var none = timestamps.getCount() == 0;
        return new Summary(
                timestamps.getCount(),
                duplicates.sum(),
                seen.cardinality(),
                none ? 0 : timestamps.getMin(),
                none ? 0 : timestamps.getMax(),
                endToEnd == null ? null : endToEnd.summary());
    }

    /**
     * Hands {@code each} every record of {@code topic} from {@code from} (per partition; its start where absent) up
     * to {@code to} (end offsets noted earlier, exclusive).
     */
    public static void read(
            String bootstrapServers,
            String topic,
            Map<Integer, Long> from,
            Map<Integer, Long> to,
            Consumer<ConsumerRecord<String, String>> each) {
        try (var consumer = consumer(bootstrapServers)) {
            read(consumer, topic, from, to, each);
        }
    }

    private static void read(
            KafkaConsumer<String, String> consumer,
            String topic,
            Map<Integer, Long> from,
            Map<Integer, Long> to,
            Consumer<ConsumerRecord<String, String>> each) {
        var partitions = to.keySet().stream()
                .map(partition -> new TopicPartition(topic, partition))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        from.forEach((partition, offset) -> consumer.seek(new TopicPartition(topic, partition), offset));
        var deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (!partitions.stream()
                .allMatch(partition -> consumer.position(partition) >= to.getOrDefault(partition.partition(), 0L))) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(
                        "could not read " + topic + " up to " + to + " within " + READ_TIMEOUT.toMinutes() + " min");
            }
            for (var record : consumer.poll(Duration.ofMillis(500))) {
                if (record.offset() < to.getOrDefault(record.partition(), 0L)) {
                    each.accept(record);
                }
            }
        }
    }

    /** A consumer of the lab's own, in no group and committing nothing. */
    private static KafkaConsumer<String, String> consumer(String bootstrapServers) {
        var properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "orderpipeline-lab-reader");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        return new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
    }

    /** The record key: the worker keys each result by its order's id. */
    private static @Nullable UUID orderId(ConsumerRecord<String, String> record) {
        try {
            return UUID.fromString(record.key());
        } catch (RuntimeException ex) {
            log.debug("Skipping a result that names no order at offset {}", record.offset(), ex);
            return null;
        }
    }
}
