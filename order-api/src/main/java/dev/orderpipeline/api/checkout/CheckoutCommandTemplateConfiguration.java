package dev.orderpipeline.api.checkout;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.support.ProducerListener;

/**
 * The template that publishes checkout commands (a single-product order's and a cart's), in place of Boot's.
 *
 * <p>With observation enabled, a template looks the cluster id up through the admin on every send until it has
 * one, holding a lock, and the admin closes its client with no time limit. If the API starts while the broker is
 * down, every checkout would then queue behind those lookups (a minute each by default) before the producer's own
 * bounded wait even begins. This template only reports the cluster id the admin learned at startup, so a send is
 * bounded by {@code max.block.ms} alone.
 */
@Configuration(proxyBeanMethods = false)
class CheckoutCommandTemplateConfiguration {

    @Bean
    KafkaTemplate<String, Object> checkoutCommandTemplate(
            ProducerFactory<String, Object> producerFactory, KafkaProperties kafka, KafkaAdmin admin) {
        var template = new KafkaTemplate<>(producerFactory);
        template.setObservationEnabled(kafka.getTemplate().isObservationEnabled());
        template.setKafkaAdmin(new StartupClusterIdAdmin(admin));
        // the publisher says what became of a send, once; the default listener logged every failure again, at ERROR,
        // with the record and a stack trace
        template.setProducerListener(new ProducerListener<>() {});
        return template;
    }

    /** An admin that answers the cluster id from what the application's admin learned, never from the broker. */
    private static final class StartupClusterIdAdmin extends KafkaAdmin {

        private final KafkaAdmin admin;

        StartupClusterIdAdmin(KafkaAdmin admin) {
            super(admin.getConfigurationProperties());
            this.admin = admin;
        }

        @Override
        public @Nullable String clusterId() {
            return admin.getClusterId();
        }
    }
}
