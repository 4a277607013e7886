package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.ContainerProperties.AckMode;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.serializer.DelegatingByTypeSerializer;
import org.springframework.kafka.support.serializer.ErrorHandlingDeserializer;
import org.springframework.kafka.support.serializer.JacksonJsonDeserializer;
import org.springframework.kafka.support.serializer.JacksonJsonSerializer;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The worker's topics, its batch listener container, its retry policy and the producer for results and dead letters.
 *
 * <p>The consumer and producer factories are declared here, typed, rather than left to Boot, because they carry
 * deserializer and serializer instances; they are built from the {@code spring.kafka.*} properties all the same
 * (including the free-form {@code spring.kafka.consumer.properties.*} and {@code spring.kafka.producer.properties.*}),
 * and the listener and template observation switches are taken from there too. Boot's factory customizers are applied
 * to them as Boot applies them to its own: that is how the Kafka client metrics (lag per partition, fetch and send
 * rates) reach the meter registry.
 */
@Configuration(proxyBeanMethods = false)
class CheckoutKafkaConfiguration {

    /** Header on a dead-lettered record saying in a few words why it could not be applied. */
    static final String DLT_REASON_HEADER = "dlt-reason";

    /** The most the {@value #DLT_REASON_HEADER} header takes, in bytes: a few lines, whatever the record carried. */
    static final int MAX_REASON_BYTES = 1024;

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
    NewTopic checkoutCommandsDltTopic(TopicsProperties topics) {
        // as many partitions as the commands topic: a dead letter keeps its original partition number
        return TopicBuilder.name(Topics.CHECKOUT_COMMANDS_DLT)
                .partitions(topics.commandPartitions())
                .replicas(topics.replicationFactor())
                .build();
    }

    @Bean
    ConsumerFactory<String, CheckoutCommand> checkoutCommandConsumerFactory(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
        var config = kafka.buildConsumerProperties();
        config.put(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                connection.getConsumer().getBootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, worker.groupId());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, worker.maxPollRecords());
        // static membership when the instance has a stable name (see WorkerProperties for the trade-off); the
        // listener container appends its index when there are several
        if (worker.instanceId() != null) {
            config.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, worker.instanceId());
        }
        // the new group protocol refuses this client setting (its broker decides), the classic one needs it
        if (isClassicGroupProtocol(config)) {
            config.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int)
                    worker.sessionTimeout().toMillis());
        }
        // the container commits a poll's offsets after the database commit, never in the background
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        var factory = new DefaultKafkaConsumerFactory<>(
                config, StringDeserializer::new, CheckoutKafkaConfiguration::checkoutCommandDeserializer);
        customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
        return factory;
    }

    private static boolean isClassicGroupProtocol(Map<String, Object> config) {
        var protocol = config.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
        return protocol == null || GroupProtocol.CLASSIC.name().equalsIgnoreCase(protocol.toString());
    }

    /**
     * The contract is the JSON shape, so the target type is fixed and type headers are ignored; a record that does
     * not read as a valid command reaches the listener with a null value and the failure in a header.
     */
    private static Deserializer<CheckoutCommand> checkoutCommandDeserializer() {
        return new ErrorHandlingDeserializer<>(new JacksonJsonDeserializer<>(CheckoutCommand.class, false));
    }

    /**
     * Whatever the listener throws is a transient database failure or an unacknowledged dead letter: the whole batch
     * is redelivered from the same offsets, with growing pauses and no limit, so nothing is skipped or reordered. The
     * consumer keeps polling (paused) meanwhile, so the group does not rebalance.
     */
    @Bean
    DefaultErrorHandler checkoutErrorHandler(WorkerProperties worker) {
        var backOff = new ExponentialBackOff(worker.retryInitialInterval().toMillis(), 2.0);
        backOff.setMaxInterval(worker.retryMaxInterval().toMillis());
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        backOff.setMaxAttempts(Long.MAX_VALUE);
        return new DefaultErrorHandler(backOff);
    }

    @Bean
    ConcurrentKafkaListenerContainerFactory<String, CheckoutCommand> kafkaListenerContainerFactory(
            ConsumerFactory<String, CheckoutCommand> consumerFactory,
            DefaultErrorHandler errorHandler,
            KafkaProperties kafka,
            WorkerProperties worker) {
        var factory = new ConcurrentKafkaListenerContainerFactory<String, CheckoutCommand>();
        factory.setConsumerFactory(consumerFactory);
        factory.setBatchListener(true);
        factory.setConcurrency(worker.concurrency());
        factory.setCommonErrorHandler(errorHandler);
        factory.setAutoStartup(kafka.getListener().isAutoStartup());
        var container = factory.getContainerProperties();
        container.setAckMode(AckMode.BATCH);
        container.setObservationEnabled(kafka.getListener().isObservationEnabled());
        return factory;
    }

    /** One producer for results (JSON), dead-lettered commands (JSON) and unreadable records (their raw bytes). */
    @Bean
    ProducerFactory<String, Object> workerProducerFactory(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
        var config = kafka.buildProducerProperties();
        config.put(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                connection.getProducer().getBootstrapServers());
        var json = new JacksonJsonSerializer<>().noTypeInfo();
        Map<Class<?>, Serializer<?>> serializers = Map.of(
                CheckoutResult.class, json, CheckoutCommand.class, json, byte[].class, new ByteArraySerializer());
        var factory = new DefaultKafkaProducerFactory<>(
                config, new StringSerializer(), new DelegatingByTypeSerializer(serializers));
        customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
        return factory;
    }

    @Bean
    KafkaTemplate<String, Object> workerKafkaTemplate(
            ProducerFactory<String, Object> producerFactory, KafkaProperties kafka) {
        var template = new KafkaTemplate<>(producerFactory);
        template.setObservationEnabled(kafka.getTemplate().isObservationEnabled());
        return template;
    }

    /**
     * Sends a record to the dead-letter topic with spring-kafka's exception headers, the original headers and a
     * {@value #DLT_REASON_HEADER} header, every one of them bounded, and waits for the broker's acknowledgement (it
     * throws if there is none).
     */
    @Bean
    DeadLetterPublishingRecoverer checkoutDeadLetterRecoverer(
            KafkaTemplate<String, Object> template, WorkerProperties worker) {
        var recoverer = new BoundedDeadLetterRecoverer(
                template, (record, failure) -> new TopicPartition(Topics.CHECKOUT_COMMANDS_DLT, record.partition()));
        recoverer.setFailIfSendResultIsError(true);
        recoverer.setWaitForSendResultTimeout(worker.sendTimeout());
        recoverer.setHeadersFunction(
                (record, failure) -> new RecordHeaders().add(DLT_REASON_HEADER, reasonBytes(failure)));
        return recoverer;
    }

    private static byte[] reasonBytes(Exception failure) {
        var reason = Objects.requireNonNullElse(
                failure.getMessage(), failure.getClass().getSimpleName());
        return BoundedDeadLetterRecoverer.bounded(reason.getBytes(StandardCharsets.UTF_8), MAX_REASON_BYTES);
    }
}
