package dev.orderpipeline.topics;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Refuses the start of an app whose topics have fewer replicas than {@code orderpipeline.topics.min-replication-factor}
 * ({@link ReplicationBelowFloorException}): a topic made before the setting, by hand or with the cluster's default
 * keeps its replication factor, which no declaration changes. Runs as the context starts, after {@link KafkaAdmin}
 * has created the missing topics (so those are checked too) and before the web server and the listeners start. A
 * broker that does not describe the topics within {@code check-timeout} gets a warning, not a refusal: the apps
 * start with the broker down and wait for it.
 */
final class ReplicationFloorCheck implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ReplicationFloorCheck.class);

    /** Before the web server's phase and the listener containers'. */
    private static final int PHASE = 0;

    private final KafkaAdmin kafkaAdmin;
    private final Supplier<List<String>> topics;
    private final int floor;
    private final Duration timeout;
    private volatile boolean running;

    /** @param topics the names of the topics the app uses (those it declares), read when the check runs */
    ReplicationFloorCheck(KafkaAdmin kafkaAdmin, Supplier<List<String>> topics, int floor, Duration timeout) {
        this.kafkaAdmin = kafkaAdmin;
        this.topics = topics;
        this.floor = floor;
        this.timeout = timeout;
    }

    @Override
    public void start() {
        running = true;
        var names = topics.get();
        // every topic has a replica: a floor of 1 has nothing to check, and costs no wait with the broker down
        if (floor > 1 && !names.isEmpty()) {
            check(names);
        }
    }

    private void check(List<String> names) {
        var millis = (int) timeout.toMillis();
        // Boot's admin settings (bootstrap servers, security) with this check's own bounds
        var config = new HashMap<>(kafkaAdmin.getConfigurationProperties());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        var admin = Admin.create(config);
        try {
            var descriptions = admin.describeTopics(names, new DescribeTopicsOptions().timeoutMs(millis))
                    .topicNameValues();
            var deadline = System.nanoTime() + timeout.toNanos();
            var below = new LinkedHashMap<String, Integer>();
            for (var topic : names) {
                var description = describe(topic, descriptions, deadline);
                if (description != null && replicas(description) < floor) {
                    below.put(topic, replicas(description));
                }
            }
            if (!below.isEmpty()) {
                throw new ReplicationBelowFloorException(below, floor);
            }
            log.info("The {} topics used here have at least {} replicas each", names.size(), floor);
        } catch (BrokerSilentException ex) {
            log.warn(
                    "Topics' replication not checked against orderpipeline.topics.min-replication-factor ({}): {}",
                    floor,
                    ex.getMessage());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking the topics' replication", ex);
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
    }

    /** The topic's description, or null when it does not exist (creating it failed, and KafkaAdmin said why). */
    private @Nullable TopicDescription describe(
            String topic, Map<String, KafkaFuture<TopicDescription>> descriptions, long deadline)
            throws InterruptedException {
        try {
            return Objects.requireNonNull(descriptions.get(topic), "described: the topics asked for")
                    .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException ex) {
            if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
                log.warn("Topic {} does not exist; its replication is not checked", topic);
                return null;
            }
            throw new BrokerSilentException("the broker did not describe the topics: " + ex.getCause());
        } catch (TimeoutException ex) {
            throw new BrokerSilentException("the broker did not describe the topics within " + timeout);
        }
    }

    /** The partition with the fewest replicas decides: one partition of one replica is one broker from loss. */
    private static int replicas(TopicDescription description) {
        return description.partitions().stream()
                .mapToInt(partition -> partition.replicas().size())
                .min()
                .orElse(0);
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private static final class BrokerSilentException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        BrokerSilentException(String message) {
            super(message);
        }
    }
}
