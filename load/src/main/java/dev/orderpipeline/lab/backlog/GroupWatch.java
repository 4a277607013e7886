package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.Topics;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;

/**
 * The command topic and one consumer group as the admin client sees them: end offsets, committed offsets, the
 * group's members and their partitions. Also recreates the command topic, so that each run can start from an empty one.
 */
public final class GroupWatch implements AutoCloseable {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

    private final Admin admin;

    public GroupWatch(String bootstrapServers) {
        var properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "orderpipeline-lab-admin");
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        admin = Admin.create(properties);
    }

    public List<Integer> partitions(String topic) {
        var description = Objects.requireNonNull(
                get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic), topic);
        return description.partitions().stream()
                .map(info -> info.partition())
                .sorted()
                .toList();
    }

    /** End offset per partition of a topic: the offset the next record will get. */
    public Map<Integer, Long> endOffsets(String topic) {
        var request = new HashMap<TopicPartition, OffsetSpec>();
        for (var partition : partitions(topic)) {
            request.put(new TopicPartition(topic, partition), OffsetSpec.latest());
        }
        var offsets = new TreeMap<Integer, Long>();
        get(admin.listOffsets(request).all()).forEach((tp, info) -> offsets.put(tp.partition(), info.offset()));
        return offsets;
    }

    /** The group's committed offsets on {@code topic}; empty while it has committed nothing. */
    public Map<Integer, Long> committed(String group, String topic) {
        var offsets = new TreeMap<Integer, Long>();
        try {
            get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata())
                    .forEach((tp, offset) -> {
                        if (offset != null && tp.topic().equals(topic)) {
                            offsets.put(tp.partition(), offset.offset());
                        }
                    });
        } catch (IllegalStateException ex) {
            if (!(ex.getCause() instanceof GroupIdNotFoundException)) {
                throw ex;
            }
        }
        return offsets;
    }

    public ConsumerGroupDescription description(String group) {
        return get(Objects.requireNonNull(
                admin.describeConsumerGroups(List.of(group)).describedGroups().get(group), group));
    }

    /** Every topic of the cluster, with each partition's leader, replicas and in-sync replicas. */
    public Collection<TopicDescription> topics() {
        return get(admin.describeTopics(get(admin.listTopics().names())).allTopicNames())
                .values();
    }

    /** End and committed offsets now, and the owners when asked (one more round trip). */
    public OffsetSample sample(String group, long sinceNanos, boolean withOwners) {
        var end = endOffsets(Topics.CHECKOUT_COMMANDS);
        var committed = committed(group, Topics.CHECKOUT_COMMANDS);
        Map<Integer, String> owners = withOwners ? owners(description(group)) : Map.of();
        return new OffsetSample(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos), end, committed, owners);
    }

    /** Partition of the command topic to the client id (the lab names each worker's client) of its owner. */
    private static Map<Integer, String> owners(ConsumerGroupDescription description) {
        var owners = new TreeMap<Integer, String>();
        for (var member : description.members()) {
            member.assignment().topicPartitions().stream()
                    .filter(tp -> tp.topic().equals(Topics.CHECKOUT_COMMANDS))
                    .forEach(tp -> owners.put(tp.partition(), member.clientId()));
        }
        return owners;
    }

    /** Waits until the group is stable with {@code members} members that own every partition of the command topic. */
    public void awaitStable(String group, int members, Duration timeout) {
        var partitions = partitions(Topics.CHECKOUT_COMMANDS).size();
        var deadline = System.nanoTime() + timeout.toNanos();
        @Nullable String seen = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                var description = description(group);
                var owners = owners(description);
                if (description.groupState() == GroupState.STABLE
                        && description.members().stream()
                                        .map(MemberDescription::clientId)
                                        .distinct()
                                        .count()
                                == members
                        && owners.size() == partitions) {
                    return;
                }
                seen = description.groupState() + ", owners " + owners;
            } catch (IllegalStateException ex) {
                // not there yet: the workers are still joining
                seen = ex.getMessage();
            }
            pause(200);
        }
        throw new IllegalStateException("group " + group + " did not become stable with " + members
                + " members owning " + partitions + " partitions within " + timeout.toSeconds() + " s; last seen: "
                + seen);
    }

    /**
     * Deletes the command topic and creates it again, empty, with {@code partitions} partitions. No consumer of it
     * may be running.
     */
    public void recreateCommandTopic(int partitions) {
        var topic = Topics.CHECKOUT_COMMANDS;
        try {
            get(admin.deleteTopics(List.of(topic)).all());
        } catch (IllegalStateException ex) {
            if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw ex;
            }
        }
        var deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        var created = false;
        while (true) {
            try {
                if (!created) {
                    get(admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                            .all());
                    created = true;
                }
                if (partitions(topic).size() == partitions
                        && endOffsets(topic).values().stream().allMatch(offset -> offset == 0)) {
                    return;
                }
            } catch (IllegalStateException ex) {
                // the deletion completes in the background; until then the name is taken
                if (!created && !(ex.getCause() instanceof TopicExistsException)) {
                    throw ex;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(
                        "topic " + topic + " did not come back with " + partitions + " partitions within 60 s");
            }
            pause(250);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(CALL_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException ex) {
            var cause = ex.getCause() == null ? ex : ex.getCause();
            throw new IllegalStateException(cause.getMessage(), cause);
        } catch (TimeoutException ex) {
            throw new IllegalStateException("the broker did not answer within " + CALL_TIMEOUT.toSeconds() + " s", ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking the broker", ex);
        }
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
