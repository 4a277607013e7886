package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
 * The lab's own consumer of {@code checkout.results}: it notes when the outcome of each tracked order reached it, so
 * the time to a final outcome of an asynchronous checkout is measured without polling the API. It reads every
 * partition from the end as it was at start (no consumer group, no commits), so earlier runs' results are skipped.
 * Experiments that read a topic after a run instead ({@link #read}) use a consumer of the same kind.
 */
public final class ResultsListener implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ResultsListener.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(5);

    /** How long the results of a run's accepted checkouts may still be arriving once the run is over. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    private final KafkaConsumer<String, String> consumer;
    private final Thread thread;
    private final Map<UUID, Long> receivedAt = new ConcurrentHashMap<>();
    private volatile Set<UUID> tracked = Set.of();
    private volatile boolean closed;

    private ResultsListener(String bootstrapServers) {
        // the outcome must be seen the moment it is written, not when a batch has filled
        consumer = consumer(
                bootstrapServers, "orderpipeline-lab-results", Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10"));
        thread = new Thread(this::run, "lab-results-listener");
        thread.setDaemon(true);
    }

    /** A consumer of the lab's own, in no group and committing nothing; {@code tuning} adds or overrides settings. */
    private static KafkaConsumer<String, String> consumer(
            String bootstrapServers, String clientId, Map<String, String> tuning) {
        var properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        properties.putAll(tuning);
        return new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer());
    }

    /**
     * The lab's one reader of a topic after the fact: hands {@code each} every record of {@code topic} from {@code
     * from} (per partition; its start where absent) up to {@code to} (the end offsets noted earlier, exclusive).
     */
    public static void read(
            String bootstrapServers,
            String topic,
            Map<Integer, Long> from,
            Map<Integer, Long> to,
            Consumer<ConsumerRecord<String, String>> each) {
        try (var consumer = consumer(
                bootstrapServers, "orderpipeline-lab-reader", Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000"))) {
            var partitions = to.keySet().stream()
                    .map(partition -> new TopicPartition(topic, partition))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            from.forEach((partition, offset) -> consumer.seek(new TopicPartition(topic, partition), offset));
            var deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!partitions.stream()
                    .allMatch(
                            partition -> consumer.position(partition) >= to.getOrDefault(partition.partition(), 0L))) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("could not read " + topic + " up to " + to + " within "
                            + READ_TIMEOUT.toMinutes() + " min");
                }
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() < to.getOrDefault(record.partition(), 0L)) {
                        each.accept(record);
                    }
                }
            }
        }
    }

    /** Starts listening once every partition's position is fixed at its current end, within {@code timeout}. */
    public static ResultsListener start(String bootstrapServers, Duration timeout) {
        var listener = new ResultsListener(bootstrapServers);
        var consumer = listener.consumer;
        try {
            var partitions = listener.partitions(System.nanoTime() + timeout.toNanos());
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            // position() resolves the lazy seek now, before any checkout of the run is sent
            partitions.forEach(partition -> consumer.position(partition, timeout));
        } catch (RuntimeException ex) {
            consumer.close();
            throw ex;
        }
        // from here on the consumer is the listening thread's alone: a KafkaConsumer is not for two threads
        listener.thread.start();
        return listener;
    }

    /** From now on, notes results of these orders only (and forgets earlier ones). */
    public void track(Collection<UUID> orderIds) {
        receivedAt.clear();
        tracked = Set.copyOf(orderIds);
    }

    /**
     * What the listener saw of a run: per order with a result, the time from its start to its result; how many
     * arrived; when the last did ({@link System#nanoTime()}, 0 when none).
     */
    public record Decisions(Latency latency, long received, long lastAt) {}

    /**
     * The one way the lab times decisions as they come: waits until {@code expected} results of the tracked orders
     * arrived or the deadline ({@link System#nanoTime()}) passed, then times each of {@code orders} from {@code
     * startedAt} (by its index) to its result.
     */
    public Decisions decisions(List<UUID> orders, long expected, long deadline, IntToLongFunction startedAt) {
        while (receivedAt.size() < expected && System.nanoTime() - deadline < 0) {
            pause(20, "checkout results");
        }
        var received = Map.copyOf(receivedAt);
        var latency = new LatencyRecorder();
        long last = 0;
        for (var index = 0; index < orders.size(); index++) {
            var at = received.get(orders.get(index));
            if (at != null) {
                latency.recordNanos(at - startedAt.applyAsLong(index));
                last = Math.max(last, at);
            }
        }
        return new Decisions(latency.summary(), received.size(), last);
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try (consumer) {
            while (!closed) {
                for (var record : consumer.poll(POLL)) {
                    note(record, System.nanoTime());
                }
            }
        } catch (RuntimeException ex) {
            // a wakeup is how close() ends the poll
            if (!closed) {
                log.error("The results listener stopped; times to final outcome will be missing", ex);
            }
        }
    }

    private List<TopicPartition> partitions(long deadlineNanos) {
        while (true) {
            var infos = consumer.partitionsFor(Topics.CHECKOUT_RESULTS, Duration.ofSeconds(10));
            if (!infos.isEmpty()) {
                return infos.stream()
                        .map(info -> new TopicPartition(info.topic(), info.partition()))
                        .toList();
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new IllegalStateException(
                        "topic " + Topics.CHECKOUT_RESULTS + " does not exist (order-api creates it at start-up)");
            }
            // the API declares the topic at start-up; a run aimed at a fresh stack may get here a moment earlier
            pause(500, Topics.CHECKOUT_RESULTS);
        }
    }

    private static void pause(long millis, String awaited) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + awaited, ex);
        }
    }

    private void note(ConsumerRecord<String, String> record, long nanos) {
        var orderId = orderId(record);
        if (orderId != null && tracked.contains(orderId)) {
            receivedAt.putIfAbsent(orderId, nanos);
        }
    }

    /** The record key is the order id; the value's {@code orderId} stands in should a producer omit the key. */
    public static @Nullable UUID orderId(ConsumerRecord<String, String> record) {
        try {
            if (record.key() != null) {
                return UUID.fromString(record.key());
            }
            var value = record.value();
            return value == null
                    ? null
                    : UUID.fromString(JSON.readTree(value).path("orderId").asString());
        } catch (RuntimeException ex) {
            log.debug("Skipping a result that names no order at offset {}", record.offset(), ex);
            return null;
        }
    }
}
