package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.CheckoutResult;
import java.util.HashMap;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.support.serializer.ErrorHandlingDeserializer;
import org.springframework.kafka.support.serializer.JacksonJsonDeserializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The results consumer. Every instance must see every result (the request waiting for one may be on any
 * instance), so each gets a consumer group of its own; it starts at the end of the topic because a result from
 * before it started has nobody waiting for it here. A record that does not read as a {@link CheckoutResult} is
 * logged and skipped by the error handler instead of blocking its partition.
 */
@Configuration(proxyBeanMethods = false)
class CheckoutKafkaConfiguration {

    static final String RESULTS_CONTAINER_FACTORY = "checkoutResultsContainerFactory";

    private static final Logger log = LoggerFactory.getLogger(CheckoutKafkaConfiguration.class);

    @Bean(RESULTS_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, CheckoutResult> checkoutResultsContainerFactory(
            ConsumerFactory<?, ?> bootConsumerFactory, CheckoutProperties properties, JsonMapper jsonMapper) {
        // start from Boot's consumer settings (bootstrap servers, security, client tuning) and own the rest
        var config = new HashMap<>(bootConsumerFactory.getConfigurationProperties());
        var groupId = properties.resultsGroupPrefix() + UUID.randomUUID();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        var values = new ErrorHandlingDeserializer<CheckoutResult>(
                new JacksonJsonDeserializer<>(CheckoutResult.class, jsonMapper, false));
        var factory = new ConcurrentKafkaListenerContainerFactory<String, CheckoutResult>();
        factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(config, new StringDeserializer(), values));
        log.info("Checkout results are read in consumer group {}", groupId);
        return factory;
    }
}
