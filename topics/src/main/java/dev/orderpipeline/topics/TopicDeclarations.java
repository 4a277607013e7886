package dev.orderpipeline.topics;

import dev.orderpipeline.contract.Topics;
import java.util.Arrays;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Builds the {@link NewTopic} of any of the pipeline's topics from {@link TopicsProperties}. An app declares the
 * topics it needs with {@link #declare}; each is then created alike, whichever app creates it.
 */
public final class TopicDeclarations {

    private final TopicsProperties properties;

    TopicDeclarations(TopicsProperties properties) {
        this.properties = properties;
    }

    /** The topics named, as one bean for {@link KafkaAdmin} to create at startup. */
    public KafkaAdmin.NewTopics declare(String... topics) {
        return new KafkaAdmin.NewTopics(
                Arrays.stream(topics).map(this::newTopic).toArray(NewTopic[]::new));
    }

    /**
     * The topic as it is created. Every topic's replication is set here and nowhere else, so a replication setting
     * (or a check of it against the cluster) added later applies to all of them.
     */
    public NewTopic newTopic(String topic) {
        return TopicBuilder.name(topic)
                .partitions(partitions(topic))
                .replicas(properties.replicationFactor())
                .build();
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
            case Topics.CHECKOUT_CARTS,
                    Topics.CHECKOUT_CARTS_DLT,
                    Topics.CHECKOUT_RESERVATION_REPLIES,
                    Topics.CHECKOUT_RESERVATION_REPLIES_DLT -> properties.cartPartitions();
            default -> throw new IllegalArgumentException("Not a topic the pipeline creates: " + topic);
        };
    }
}
