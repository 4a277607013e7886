package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.ProductStock;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationReply;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.topics.TopicDeclarations;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.serializer.DelegatingByTypeSerializer;
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

    /** Each consumed topic's dead-letter topic; each has as many partitions as the topic it takes records from. */
    private static final Map<String, String> DEAD_LETTER_TOPICS = Map.of(
            Topics.CHECKOUT_COMMANDS, Topics.CHECKOUT_COMMANDS_DLT,
            Topics.CHECKOUT_CARTS, Topics.CHECKOUT_CARTS_DLT,
            Topics.CHECKOUT_RESERVATIONS, Topics.CHECKOUT_RESERVATIONS_DLT,
            Topics.CHECKOUT_RESERVATION_REPLIES, Topics.CHECKOUT_RESERVATION_REPLIES_DLT);

    @Bean
    KafkaAdmin.NewTopics checkoutTopics(TopicDeclarations topics) {
        return topics.declare(
                Topics.CHECKOUT_COMMANDS, Topics.CHECKOUT_COMMANDS_DLT, Topics.CHECKOUT_RESULTS, Topics.PRODUCT_STOCK);
    }

    @Bean
    ConsumerFactory<String, CheckoutCommand> checkoutCommandConsumerFactory(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
        return WorkerKafka.consumerFactory(
                kafka, connection, worker, customizers, worker.groupId(), CheckoutCommand.class);
    }

    /**
     * Whatever the listener throws is a transient database failure or an unacknowledged dead letter: the whole batch
     * is redelivered from the same offsets, with growing pauses and no limit, so nothing is skipped or reordered. The
     * consumer keeps polling (paused) meanwhile, so the group does not rebalance. A static member that the consumer
     * protocol turned away because its previous self was killed without leaving asks again until it is let in
     * ({@link RejoiningErrorHandler}).
     */
    @Bean
    RejoiningErrorHandler checkoutErrorHandler(WorkerProperties worker) {
        var backOff = new ExponentialBackOff(worker.retryInitialInterval().toMillis(), 2.0);
        backOff.setMaxInterval(worker.retryMaxInterval().toMillis());
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        backOff.setMaxAttempts(Long.MAX_VALUE);
        return new RejoiningErrorHandler(backOff);
    }

    @Bean
    ConcurrentKafkaListenerContainerFactory<String, CheckoutCommand> kafkaListenerContainerFactory(
            ConsumerFactory<String, CheckoutCommand> consumerFactory,
            DefaultErrorHandler errorHandler,
            KafkaProperties kafka,
            WorkerProperties worker) {
        return WorkerKafka.containerFactory(consumerFactory, errorHandler, kafka, worker);
    }

    /**
     * One producer for results, product stocks and the cart saga's steps and replies (JSON), dead-lettered commands (JSON) and
     * unreadable records (their raw bytes).
     */
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
                CheckoutResult.class,
                json,
                CheckoutCommand.class,
                json,
                CartCheckoutCommand.class,
                json,
                ReservationCommand.class,
                json,
                ReservationReply.class,
                json,
                ProductStock.class,
                json,
                byte[].class,
                new ByteArraySerializer());
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
     * Sends a record to its topic's dead-letter topic, on the partition of its number, with spring-kafka's exception headers, the original headers and a
     * {@value #DLT_REASON_HEADER} header, every one of them bounded, and waits for the broker's acknowledgement (it
     * throws if there is none).
     */
    @Bean
    DeadLetterPublishingRecoverer checkoutDeadLetterRecoverer(
            KafkaTemplate<String, Object> template, WorkerProperties worker) {
        var recoverer = new BoundedDeadLetterRecoverer(template, (record, failure) -> {
            var deadLetterTopic = DEAD_LETTER_TOPICS.get(record.topic());
            return deadLetterTopic == null ? null : new TopicPartition(deadLetterTopic, record.partition());
        });
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
