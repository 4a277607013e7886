package dev.orderpipeline.topics;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Binds {@code orderpipeline.topics.*}, offers the {@link TopicDeclarations} built from it to every app, and checks
 * at start that the topics the app declares have the replicas {@code min-replication-factor} asks for.
 */
// after Boot's Kafka auto-configuration (its KafkaAdmin), named so that this module does not depend on it
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@EnableConfigurationProperties(TopicsProperties.class)
public class TopicsAutoConfiguration {

    @Bean
    TopicDeclarations topicDeclarations(TopicsProperties properties) {
        return new TopicDeclarations(properties);
    }

    @Bean
    @ConditionalOnBean(KafkaAdmin.class)
    ReplicationFloorCheck replicationFloorCheck(
            KafkaAdmin kafkaAdmin, TopicsProperties properties, TopicDeclarations declarations) {
        return new ReplicationFloorCheck(
                kafkaAdmin, declarations::declared, properties.minReplicationFactor(), properties.checkTimeout());
    }
}
