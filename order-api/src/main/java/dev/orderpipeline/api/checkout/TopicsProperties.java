package dev.orderpipeline.api.checkout;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Topic layout, declared identically by the worker.
 *
 * @param commandPartitions partitions of the commands topic and its DLT: the most products checked out in
 *     parallel
 * @param resultPartitions partitions of the results topic
 * @param replicationFactor replicas of every topic
 */
@ConfigurationProperties("orderpipeline.topics")
record TopicsProperties(
        @DefaultValue("6") int commandPartitions,
        @DefaultValue("3") int resultPartitions,
        @DefaultValue("1") int replicationFactor) {

    TopicsProperties {
        if (commandPartitions < 1 || resultPartitions < 1 || replicationFactor < 1) {
            throw new IllegalArgumentException("orderpipeline.topics.* must be positive: " + commandPartitions + ", "
                    + resultPartitions + ", " + replicationFactor);
        }
    }
}
