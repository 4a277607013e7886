package dev.orderpipeline.worker.checkout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/** Reads a whole topic from its beginning, collecting what has arrived so far each time it is asked. */
public final class TopicReader implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();

    public TopicReader(EmbeddedKafkaBroker broker, String topic) {
        var properties = KafkaTestUtils.consumerProps(broker, "reader-" + UUID.randomUUID(), false);
        consumer = new KafkaConsumer<>(properties, new StringDeserializer(), new ByteArrayDeserializer());
        var partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Everything read so far, after one more poll. */
    public List<ConsumerRecord<String, byte[]>> records() {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        return List.copyOf(records);
    }

    /**
     * The records read so far whose {@code test-case} header starts with {@code runId}, by the rest of that header;
     * the first of each case.
     */
    public Map<String, ConsumerRecord<String, byte[]>> byTestCase(String runId) {
        var byCase = new LinkedHashMap<String, ConsumerRecord<String, byte[]>>();
        for (var record : records()) {
            var testCase = header(record, "test-case");
            if (testCase != null && testCase.startsWith(runId)) {
                byCase.putIfAbsent(testCase.substring(runId.length()), record);
            }
        }
        return byCase;
    }

    public static @Nullable String header(ConsumerRecord<?, ?> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
