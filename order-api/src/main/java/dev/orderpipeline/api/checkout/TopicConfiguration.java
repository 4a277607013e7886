package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.Topics;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;

/**
 * Declares the pipeline's topics that the API writes or reads, so that whichever app starts first creates them. A
 * dead-letter topic has as many partitions as the topic it serves, so a dead letter keeps its original partition.
 */
@Configuration(proxyBeanMethods = false)
class TopicConfiguration {

    @Bean
    NewTopic checkoutCommandsTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_COMMANDS, topics.commandPartitions(), topics);
    }

    @Bean
    NewTopic checkoutResultsTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_RESULTS, topics.resultPartitions(), topics);
    }

    @Bean
    NewTopic checkoutCommandsDeadLetterTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_COMMANDS_DLT, topics.commandPartitions(), topics);
    }

    @Bean
    NewTopic checkoutCartsTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_CARTS, topics.cartPartitions(), topics);
    }

    @Bean
    NewTopic checkoutCartsDeadLetterTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_CARTS_DLT, topics.cartPartitions(), topics);
    }

    private static NewTopic topic(String name, int partitions, TopicsProperties topics) {
        return TopicBuilder.name(name)
                .partitions(partitions)
                .replicas(topics.replicationFactor())
                .build();
    }
}
