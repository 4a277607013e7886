package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a commands topic (the single-product orders' unless told another) from the beginning, as text, without a consumer group (all partitions assigned), so
 * tests see exactly the records the API published.
 */
public final class CommandTap implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final KafkaConsumer<String, String> consumer;

    public CommandTap(String bootstrapServers) {
        this(bootstrapServers, Topics.CHECKOUT_COMMANDS);
    }

    public CommandTap(String bootstrapServers, String topic) {
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new StringDeserializer());
        var partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** The order's first command, polled for up to 15 s; fails when none comes. */
    ConsumerRecord<String, String> awaitFor(UUID orderId) {
        var deadline = Instant.now().plusSeconds(15);
        var records = pollFor(orderId);
        while (records.isEmpty()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("no command for order " + orderId);
            }
            records = pollFor(orderId);
        }
        return records.getFirst();
    }

    /** Records polled now (possibly none), every one with a value. */
    List<ConsumerRecord<String, String>> poll() {
        var found = new ArrayList<ConsumerRecord<String, String>>();
        for (var record : consumer.poll(Duration.ofMillis(200))) {
            if (record.value() != null) {
                found.add(record);
            }
        }
        return found;
    }

    /** Records polled now (possibly none) whose value names the order. */
    List<ConsumerRecord<String, String>> pollFor(UUID orderId) {
        return poll().stream()
                .filter(record ->
                        orderId.toString().equals(value(record).path("orderId").asString("")))
                .toList();
    }

    /** Records polled now (possibly none) keyed by the product, as every command of the product is. */
    public List<ConsumerRecord<String, String>> pollForProduct(UUID productId) {
        var found = new ArrayList<ConsumerRecord<String, String>>();
        for (var record : consumer.poll(Duration.ofMillis(200))) {
            if (productId.toString().equals(record.key())) {
                found.add(record);
            }
        }
        return found;
    }

    static JsonNode value(ConsumerRecord<String, String> record) {
        return JSON.readTree(record.value());
    }

    static @Nullable String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    static @Nullable String commandId(ConsumerRecord<String, String> record) {
        return header(record, Headers.COMMAND_ID);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
