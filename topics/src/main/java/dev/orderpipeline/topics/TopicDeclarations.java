package dev.orderpipeline.topics;

import dev.orderpipeline.contract.Topics;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Builds the {@link NewTopic} of any of the pipeline's topics from {@link TopicsProperties}. An app declares the
 * topics it needs with {@link #declare}; each is then created alike, whichever app creates it.
 */
public final class TopicDeclarations {

    private final TopicsProperties properties;
    private final Set<String> declared = new ConcurrentSkipListSet<>();

    TopicDeclarations(TopicsProperties properties) {
        this.properties = properties;
    }

    /**
     * The topics named, as one bean for {@link KafkaAdmin} to create at startup. They are the app's topics, whose
     * replication is checked at start.
     */
    public KafkaAdmin.NewTopics declare(String... topics) {
        var newTopics = Arrays.stream(topics).map(this::newTopic).toArray(NewTopic[]::new);
        declared.addAll(Arrays.asList(topics));
        return new KafkaAdmin.NewTopics(newTopics);
    }

    /** The names of the topics declared so far, sorted. */
    List<String> declared() {
        return List.copyOf(declared);
    }

    /**
     * The topic as it is created. Every topic's replication is set here and nowhere else: the configured replication
     * factor, or none, so that the cluster's {@code default.replication.factor} applies (an explicit one would
     * override it, and a cluster's deployment that forgot the property would get topics of one replica).
     */
    public NewTopic newTopic(String topic) {
        var replicationFactor = properties.replicationFactor();
        var newTopic = new NewTopic(
                topic,
                Optional.of(partitions(topic)),
                Optional.ofNullable(replicationFactor).map(Integer::shortValue));
        var configs = new HashMap<String, String>();
        var minInsyncReplicas = minInsyncReplicas(topic);
        if (minInsyncReplicas != null) {
            configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, minInsyncReplicas.toString());
        }
        if (topic.equals(Topics.PRODUCT_STOCK)) {
            // a reader needs each product's latest stock, not its history
            configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        }
        if (!configs.isEmpty()) {
            newTopic.configs(Map.copyOf(configs));
        }
        return newTopic;
    }

    /**
     * The topics that carry checkouts and their decisions: a write there acknowledged by the leader alone would be
     * lost with it. The dead-letter topics keep the cluster's setting: what they hold was refused already, and is
     * no part of the promise that an accepted checkout gets decided.
     */
    private @Nullable Integer minInsyncReplicas(String topic) {
        return switch (topic) {
            case Topics.CHECKOUT_COMMANDS,
                    Topics.CHECKOUT_CARTS,
                    Topics.CHECKOUT_RESERVATIONS,
                    Topics.CHECKOUT_RESERVATION_REPLIES,
                    Topics.CHECKOUT_RESULTS -> {
                var configured = properties.minInsyncReplicas();
                var replicationFactor = properties.replicationFactor();
                if (configured != null) {
                    yield configured;
                }
                // one replica may be lost without refusing writes; the cluster's own value when it decides replicas
                yield replicationFactor == null ? null : Math.max(1, replicationFactor - 1);
            }
            default -> null;
        };
    }

    /**
     * A dead-letter topic has as many partitions as the topic it serves, so that a dead letter keeps its partition
     * number; the reservations, keyed by product, have as many as the commands.
     */
    public int partitions(String topic) {
        return switch (topic) {
            case Topics.CHECKOUT_COMMANDS,
                    Topics.CHECKOUT_COMMANDS_DLT,
                    Topics.CHECKOUT_RESERVATIONS,
                    Topics.CHECKOUT_RESERVATIONS_DLT -> properties.commandPartitions();
            case Topics.CHECKOUT_RESULTS -> properties.resultPartitions();
            case Topics.PRODUCT_STOCK -> properties.stockPartitions();
            case Topics.CHECKOUT_CARTS,
                    Topics.CHECKOUT_CARTS_DLT,
                    Topics.CHECKOUT_RESERVATION_REPLIES,
                    Topics.CHECKOUT_RESERVATION_REPLIES_DLT -> properties.cartPartitions();
            default -> throw new IllegalArgumentException("Not a topic the pipeline creates: " + topic);
        };
    }
}
