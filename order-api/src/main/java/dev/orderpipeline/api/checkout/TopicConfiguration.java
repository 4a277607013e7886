package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.Topics;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;

/** Declares the pipeline's topics so that whichever app starts first creates them. */
@Configuration(proxyBeanMethods = false)
class TopicConfiguration {

    @Bean
    NewTopic checkoutCommandsTopic(TopicsProperties topics) {
        return TopicBuilder.name(Topics.CHECKOUT_COMMANDS)
                .partitions(topics.commandPartitions())
                .replicas(topics.replicationFactor())
                .build();
    }

    @Bean
    NewTopic checkoutResultsTopic(TopicsProperties topics) {
        return TopicBuilder.name(Topics.CHECKOUT_RESULTS)
                .partitions(topics.resultPartitions())
                .replicas(topics.replicationFactor())
                .build();
    }

    @Bean
    NewTopic checkoutCommandsDeadLetterTopic(TopicsProperties topics) {
        // the same partition count as the commands topic, so a dead letter keeps its original partition
        return TopicBuilder.name(Topics.CHECKOUT_COMMANDS_DLT)
                .partitions(topics.commandPartitions())
                .replicas(topics.replicationFactor())
                .build();
    }

    @Bean
    NewTopic checkoutCartsTopic(TopicsProperties topics) {
        return TopicBuilder.name(Topics.CHECKOUT_CARTS)
                .partitions(topics.cartPartitions())
                .replicas(topics.replicationFactor())
                .build();
    }

    @Bean
    NewTopic checkoutCartsDeadLetterTopic(TopicsProperties topics) {
        // as for the commands: a dead letter keeps its original partition
        return TopicBuilder.name(Topics.CHECKOUT_CARTS_DLT)
                .partitions(topics.cartPartitions())
                .replicas(topics.replicationFactor())
                .build();
    }
}
