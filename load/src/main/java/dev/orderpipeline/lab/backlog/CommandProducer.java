package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.measure.Progress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends a backlog's checkout commands to {@code checkout.commands} as fast as one producer can: the records are
 * exactly what order-api publishes (key = product id, headers {@code command-id} and {@code command-type}, the
 * command as plain JSON without type headers), with the same durability ({@code acks=all}, idempotence); only the
 * batching is tuned for throughput, where order-api sends one checkout at a time.
 */
public final class CommandProducer {

    /** Jackson 3 writes records in component order and instants as ISO-8601 text, as order-api's serializer does. */
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final byte[] COMMAND_TYPE = CheckoutCommand.TYPE.getBytes(StandardCharsets.UTF_8);

    private CommandProducer() {}

    /**
     * What a send did: {@code seconds} from the first send to the last acknowledgement, {@code sentAtMillis} per order
     * index the record's timestamp (CreateTime) as the producer set it.
     */
    public record Sent(long records, double seconds, long[] sentAtMillis) {

        public double perSecond() {
            return seconds > 0 ? records / seconds : 0;
        }
    }

    /**
     * Sends the backlog's commands at a steady rate, command {@code i} at {@code i / ratePerSecond} seconds after
     * the first (0: as fast as possible), and waits for all acknowledgements.
     */
    public static Sent send(String bootstrapServers, Backlog backlog, double ratePerSecond, Progress progress) {
        if (ratePerSecond < 0) {
            throw new IllegalArgumentException("the rate must not be negative: " + ratePerSecond);
        }
        var timestamps = new long[backlog.size()];
        var failure = new AtomicReference<@Nullable Exception>();
        var acknowledged = new AtomicLong();
        var lastAck = new AtomicLong();
        long started;
        try (var producer = new KafkaProducer<String, byte[]>(
                properties(bootstrapServers), new StringSerializer(), new ByteArraySerializer())) {
            started = System.nanoTime();
            for (var index = 0; index < backlog.size() && failure.get() == null; index++) {
                if (ratePerSecond > 0) {
                    var due = started + Math.round(index * 1e9 / ratePerSecond);
                    for (var wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                    }
                }
                // as order-api would publish it now
                var command = CheckoutCommand.of(
                        backlog.orderId(index), backlog.productId(index), backlog.userId(index), 1, Instant.now());
                var record =
                        new ProducerRecord<>(Topics.CHECKOUT_COMMANDS, command.key(), JSON.writeValueAsBytes(command));
                record.headers()
                        .add(Headers.COMMAND_ID, command.commandId().toString().getBytes(StandardCharsets.UTF_8));
                record.headers().add(Headers.COMMAND_TYPE, COMMAND_TYPE);
                var slot = index;
                producer.send(record, (metadata, exception) -> {
                    if (exception != null) {
                        failure.compareAndSet(null, exception);
                        return;
                    }
                    timestamps[slot] = metadata.timestamp();
                    acknowledged.incrementAndGet();
                    lastAck.set(System.nanoTime());
                    progress.advance();
                });
            }
            producer.flush();
        }
        var failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("sending checkout commands failed: " + failed.getMessage(), failed);
        }
        if (acknowledged.get() != backlog.size()) {
            throw new IllegalStateException(
                    "only " + acknowledged.get() + " of " + backlog.size() + " commands were acknowledged");
        }
        var seconds = TimeUnit.NANOSECONDS.toMicros(lastAck.get() - started) / 1e6;
        return new Sent(acknowledged.get(), seconds, timestamps);
    }

    private static Properties properties(String bootstrapServers) {
        var properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "orderpipeline-lab-backlog");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        // a backlog is sent at once: large batches, a short linger, room for many in flight
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        properties.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L * 1024 * 1024));
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        return properties;
    }
}
