package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.topics.TopicsAutoConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.metrics.KafkaMetricsAutoConfiguration;
import org.springframework.boot.test.context.ConfigDataApplicationContextInitializer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.core.MicrometerProducerListener;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The worker's own consumer and producer factories get what Boot would have given its factories: every
 * {@code spring.kafka.*} property and the Kafka client metrics. No broker is needed: the factories only connect when
 * a client is created.
 */
class CheckoutKafkaConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    KafkaMetricsAutoConfiguration.class, KafkaAutoConfiguration.class, TopicsAutoConfiguration.class))
            .withUserConfiguration(WorkerSettings.class, CheckoutKafkaConfiguration.class)
            .withBean(SimpleMeterRegistry.class)
            .withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:9", "spring.kafka.admin.auto-create=false");

    @Test
    void passesFreeFormConsumerPropertiesToTheConsumer() {
        runner.withPropertyValues(
                        "spring.kafka.consumer.properties.group.protocol=consumer",
                        "spring.kafka.consumer.properties[max.partition.fetch.bytes]=4194304",
                        "orderpipeline.worker.group-id=worker-under-test")
                .run(context -> {
                    assertThat(consumerFactory(context).getConfigurationProperties())
                            .containsEntry("group.protocol", "consumer")
                            .containsEntry(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "4194304")
                            .containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "worker-under-test")
                            .containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
                });
    }

    /**
     * The shipped configuration bounds what each of the worker's four consumers holds of one fetch to one partition's
     * share, so that a backlog on every topic at once (a fresh group replaying from offset 0, a worker back after a
     * long stop) fits the 128 MiB heap: with the default 50 MiB per fetch, such a replay ran out of it.
     */
    @Test
    void theShippedConfigurationBoundsEachFetchToOnePartitionsShare() {
        runner.withInitializer(new ConfigDataApplicationContextInitializer())
                .run(context -> assertThat(consumerFactory(context).getConfigurationProperties())
                        .containsEntry(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "4194304")
                        .containsEntry(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, "4194304"));
    }

    @Test
    void joinsAsAStaticMemberUnderTheInstanceIdWithAnExplicitSessionTimeout() {
        runner.withPropertyValues("orderpipeline.worker.instance-id=checkout-worker-2")
                .run(context -> assertThat(consumerFactory(context).getConfigurationProperties())
                        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "checkout-worker-2")
                        .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 15_000));
    }

    @Test
    void joinsAsADynamicMemberWithoutAnInstanceId() {
        runner.withPropertyValues("orderpipeline.worker.instance-id= ")
                .run(context -> assertThat(consumerFactory(context).getConfigurationProperties())
                        .doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    }

    @Test
    void leavesTheSessionTimeoutToTheBrokerUnderTheNewGroupProtocol() {
        // the consumer refuses session.timeout.ms with group.protocol=consumer: the broker's setting rules there
        runner.withPropertyValues(
                        "spring.kafka.consumer.properties.group.protocol=consumer",
                        "orderpipeline.worker.instance-id=checkout-worker-1")
                .run(context -> assertThat(consumerFactory(context).getConfigurationProperties())
                        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "checkout-worker-1")
                        .doesNotContainKey(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
    }

    @Test
    void passesFreeFormProducerPropertiesToTheProducer() {
        runner.withPropertyValues("spring.kafka.producer.properties[linger.ms]=7")
                .run(context -> assertThat(producerFactory(context).getConfigurationProperties())
                        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "7"));
    }

    @Test
    void bindsTheKafkaClientMetricsOfBothFactoriesToTheMeterRegistry() {
        runner.run(context -> {
            assertThat(consumerFactory(context).getListeners())
                    .hasAtLeastOneElementOfType(MicrometerConsumerListener.class);
            assertThat(producerFactory(context).getListeners())
                    .hasAtLeastOneElementOfType(MicrometerProducerListener.class);
        });
    }

    private static ConsumerFactory<?, ?> consumerFactory(ApplicationContext context) {
        return context.getBean(ConsumerFactory.class);
    }

    private static ProducerFactory<?, ?> producerFactory(ApplicationContext context) {
        return context.getBean(ProducerFactory.class);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(WorkerProperties.class)
    static class WorkerSettings {}
}
