package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.topics.TopicDeclarations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Declares the pipeline's topics that the API writes or reads, and the dead-letter topics of those it writes, so
 * that whichever app starts first creates them (both build them from {@link TopicDeclarations}, hence alike).
 */
@Configuration(proxyBeanMethods = false)
class TopicConfiguration {

    @Bean
    KafkaAdmin.NewTopics apiTopics(TopicDeclarations topics) {
        return topics.declare(
                Topics.CHECKOUT_COMMANDS,
                Topics.CHECKOUT_COMMANDS_DLT,
                Topics.CHECKOUT_RESULTS,
                Topics.CHECKOUT_CARTS,
                Topics.CHECKOUT_CARTS_DLT,
                Topics.PRODUCT_STOCK);
    }
}
