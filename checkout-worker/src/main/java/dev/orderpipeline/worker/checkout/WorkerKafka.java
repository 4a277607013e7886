package dev.orderpipeline.worker.checkout;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties.AckMode;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.serializer.ErrorHandlingDeserializer;
import org.springframework.kafka.support.serializer.JacksonJsonDeserializer;

/**
 * How every consumer of the worker is built, whatever it reads: from the {@code spring.kafka.*} properties and Boot's
 * customizers (the Kafka client metrics), with the worker's group, static membership, poll size and session timeout,
 * offsets committed by the container after each poll, and a batch listener container with the one error handler.
 */
public final class WorkerKafka {

    private WorkerKafka() {}

    /**
     * A consumer factory of records whose value is the JSON of {@code type}.
     *
     * @param groupId the consumer group; a static member's instance id only has to be unique within its group, so the
     *     worker's consumers of different topics, each in a group of its own, share the instance's name
     */
    public static <V> ConsumerFactory<String, V> consumerFactory(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
            String groupId,
            Class<V> type) {
        var config = kafka.buildConsumerProperties();
        config.put(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                connection.getConsumer().getBootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
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
        var factory = new DefaultKafkaConsumerFactory<>(config, StringDeserializer::new, () -> deserializer(type));
        customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
        return factory;
    }

    /**
     * The phase the listener containers start in: before the web server's ({@link
     * WebServerApplicationContext#START_STOP_LIFECYCLE_PHASE}), so that a restarted worker's consumers join their
     * group while Tomcat starts instead of after it, and after the topics' replication check (phase 0). They stop
     * after the web server, finishing the poll in hand.
     */
    static final int LISTENER_PHASE = WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1024;

    /**
     * A batch listener container factory: offsets committed after each poll, the worker's one error handler, started
     * in {@link #LISTENER_PHASE}.
     */
    public static <V> ConcurrentKafkaListenerContainerFactory<String, V> containerFactory(
            ConsumerFactory<String, V> consumerFactory,
            DefaultErrorHandler errorHandler,
            KafkaProperties kafka,
            WorkerProperties worker) {
        var factory = new ConcurrentKafkaListenerContainerFactory<String, V>();
        factory.setConsumerFactory(consumerFactory);
        factory.setBatchListener(true);
        factory.setConcurrency(worker.concurrency());
        factory.setCommonErrorHandler(errorHandler);
        factory.setAutoStartup(kafka.getListener().isAutoStartup());
        factory.setPhase(LISTENER_PHASE);
        var container = factory.getContainerProperties();
        container.setAckMode(AckMode.BATCH);
        container.setObservationEnabled(kafka.getListener().isObservationEnabled());
        return factory;
    }

    private static boolean isClassicGroupProtocol(Map<String, Object> config) {
        var protocol = config.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
        return protocol == null || GroupProtocol.CLASSIC.name().equalsIgnoreCase(protocol.toString());
    }

    /**
     * The contract is the JSON shape, so the target type is fixed and type headers are ignored; a record that does
     * not read as a valid message reaches the listener with a null value and the failure in a header.
     */
    private static <V> Deserializer<V> deserializer(Class<V> type) {
        return new ErrorHandlingDeserializer<>(new JacksonJsonDeserializer<>(type, false));
    }
}
