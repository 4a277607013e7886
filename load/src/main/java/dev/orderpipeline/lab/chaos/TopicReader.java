package dev.orderpipeline.lab.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

/**
 * What the lab reads from the broker itself: end offsets, a group's committed offsets and members, and every record of
 * a topic up to the end it had when the read began (no consumer group, nothing committed).
 */
final class TopicReader implements AutoCloseable {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(3);

    private final String bootstrapServers;
    private final Admin admin;

    TopicReader(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        var properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "orderpipeline-lab-chaos-admin");
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        admin = Admin.create(properties);
    }

    Map<TopicPartition, Long> endOffsets(String topic) {
        var description = Objects.requireNonNull(
                get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic), topic);
        var request = description.partitions().stream()
                .collect(Collectors.toMap(
                        partition -> new TopicPartition(topic, partition.partition()),
                        partition -> OffsetSpec.latest()));
        return get(admin.listOffsets(request).all()).entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    Map<TopicPartition, Long> committed(String group, String topic) {
        return get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()).entrySet().stream()
                .filter(entry ->
                        entry.getValue() != null && entry.getKey().topic().equals(topic))
                .collect(Collectors.toMap(
                        Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    record Member(@Nullable String instanceId, List<Integer> partitions) {}

    List<Member> members(String group, String topic) {
        var description = get(Objects.requireNonNull(
                admin.describeConsumerGroups(List.of(group)).describedGroups().get(group), group));
        return description.members().stream()
                .map(member -> new Member(
                        member.groupInstanceId().orElse(null),
                        member.assignment().topicPartitions().stream()
                                .filter(partition -> partition.topic().equals(topic))
                                .map(TopicPartition::partition)
                                .sorted()
                                .toList()))
                .toList();
    }

    record PartitionState(String topic, int partition, int leader, List<Integer> replicas, List<Integer> isr) {}

    List<PartitionState> partitions() {
        var names = get(admin.listTopics().names());
        return get(admin.describeTopics(names).allTopicNames()).values().stream()
                .flatMap(topic -> topic.partitions().stream()
                        .map(partition -> new PartitionState(
                                topic.name(),
                                partition.partition(),
                                partition.leader() == null
                                        ? -1
                                        : partition.leader().id(),
                                partition.replicas().stream()
                                        .map(node -> node.id())
                                        .toList(),
                                partition.isr().stream().map(node -> node.id()).toList())))
                .toList();
    }

    void readAll(String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        var end = endOffsets(topic);
        var properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "orderpipeline-lab-chaos-reader");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        try (var consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            var partitions = List.copyOf(end.keySet());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!reached(consumer, end)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException(
                            "could not read " + topic + " to its end within " + READ_TIMEOUT.toSeconds() + " s");
                }
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    var partitionEnd = end.get(new TopicPartition(record.topic(), record.partition()));
                    if (partitionEnd != null && record.offset() < partitionEnd) {
                        each.accept(record);
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(entry -> consumer.position(entry.getKey()) >= entry.getValue());
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking the broker", ex);
        } catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException("the broker did not answer: " + ex.getMessage(), ex);
        }
    }
}
