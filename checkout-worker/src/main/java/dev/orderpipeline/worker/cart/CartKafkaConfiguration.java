package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationReply;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.topics.TopicDeclarations;
import dev.orderpipeline.worker.checkout.WorkerKafka;
import dev.orderpipeline.worker.checkout.WorkerProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * The saga's topics, its three consumers and the timeout sweeper's schedule.
 *
 * <p>Each consumer is in a group of its own ({@code <group-id>-carts}, {@code -reservations},
 * {@code -reservation-replies}), so that a rebalance of one topic's consumers never pauses the others, and each is
 * built and retried as the single-product consumer is ({@link WorkerKafka}, the worker's one error handler).
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class CartKafkaConfiguration implements SchedulingConfigurer {

    static final String CARTS_CONTAINER_FACTORY = "cartCheckoutContainerFactory";
    static final String RESERVATIONS_CONTAINER_FACTORY = "reservationContainerFactory";
    static final String REPLIES_CONTAINER_FACTORY = "reservationReplyContainerFactory";

    /** The consumer groups are the worker's group id with these suffixes. */
    static final String CARTS_GROUP_SUFFIX = "-carts";

    static final String RESERVATIONS_GROUP_SUFFIX = "-reservations";

    static final String REPLIES_GROUP_SUFFIX = "-reservation-replies";

    private final ObjectProvider<TimeoutSweeper> sweeper;
    private final CartProperties carts;

    CartKafkaConfiguration(ObjectProvider<TimeoutSweeper> sweeper, CartProperties carts) {
        this.sweeper = sweeper;
        this.carts = carts;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(() -> sweeper.getObject().sweep(), carts.sweepInterval());
    }

    /** The saga's topics and their dead-letter topics, sized as {@link TopicDeclarations} sizes each kind. */
    @Bean
    KafkaAdmin.NewTopics sagaTopics(TopicDeclarations topics) {
        return topics.declare(
                Topics.CHECKOUT_CARTS,
                Topics.CHECKOUT_CARTS_DLT,
                Topics.CHECKOUT_RESERVATIONS,
                Topics.CHECKOUT_RESERVATIONS_DLT,
                Topics.CHECKOUT_RESERVATION_REPLIES,
                Topics.CHECKOUT_RESERVATION_REPLIES_DLT);
    }

    @Bean(CARTS_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, CartCheckoutCommand> cartCheckoutContainerFactory(
            Consumers consumers) {
        return consumers.factory(CARTS_GROUP_SUFFIX, CartCheckoutCommand.class);
    }

    @Bean(RESERVATIONS_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, ReservationCommand> reservationContainerFactory(
            Consumers consumers) {
        return consumers.factory(RESERVATIONS_GROUP_SUFFIX, ReservationCommand.class);
    }

    @Bean(REPLIES_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, ReservationReply> reservationReplyContainerFactory(
            Consumers consumers) {
        return consumers.factory(REPLIES_GROUP_SUFFIX, ReservationReply.class);
    }

    @Bean
    Consumers sagaConsumers(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
            DefaultErrorHandler errorHandler) {
        return new Consumers(kafka, connection, worker, customizers, errorHandler);
    }

    /** Builds the saga's listener container factories, each consumer in the group {@code <group-id><suffix>}. */
    record Consumers(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
            DefaultErrorHandler errorHandler) {

        <V> ConcurrentKafkaListenerContainerFactory<String, V> factory(String groupSuffix, Class<V> type) {
            var consumers = WorkerKafka.consumerFactory(
                    kafka, connection, worker, customizers, worker.groupId() + groupSuffix, type);
            return WorkerKafka.containerFactory(consumers, errorHandler, kafka, worker);
        }
    }
}
