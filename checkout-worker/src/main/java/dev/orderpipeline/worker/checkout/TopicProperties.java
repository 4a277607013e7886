package dev.orderpipeline.worker.checkout;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Sizes of the pipeline's topics; order-api declares the same topics from the same properties.
 *
 * @param commandPartitions partitions of the commands topic and of its dead-letter topic: the most worker threads
 *     that can share the work
 * @param replicationFactor replicas of every topic
 */
@ConfigurationProperties("orderpipeline.topics")
record TopicProperties(
        @DefaultValue("6") int commandPartitions,
        @DefaultValue("1") short replicationFactor) {

    TopicProperties {
        if (commandPartitions <= 0 || replicationFactor <= 0) {
            throw new IllegalArgumentException(
                    "orderpipeline.topics.command-partitions and replication-factor must be positive");
        }
    }
}
