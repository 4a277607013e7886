package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationReply;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.TopicsProperties;
import dev.orderpipeline.worker.checkout.WorkerKafka;
import dev.orderpipeline.worker.checkout.WorkerProperties;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
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

    @Bean
    NewTopic cartCheckoutsTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_CARTS, topics.cartPartitions(), topics);
    }

    @Bean
    NewTopic cartCheckoutsDltTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_CARTS_DLT, topics.cartPartitions(), topics);
    }

    @Bean
    NewTopic reservationsTopic(TopicsProperties topics) {
        // keyed by product like the checkout commands, with as many partitions: a product's reservations and its
        // single-product checkouts have the same partition number
        return topic(Topics.CHECKOUT_RESERVATIONS, topics.commandPartitions(), topics);
    }

    @Bean
    NewTopic reservationsDltTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_RESERVATIONS_DLT, topics.commandPartitions(), topics);
    }

    @Bean
    NewTopic reservationRepliesTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_RESERVATION_REPLIES, topics.cartPartitions(), topics);
    }

    @Bean
    NewTopic reservationRepliesDltTopic(TopicsProperties topics) {
        return topic(Topics.CHECKOUT_RESERVATION_REPLIES_DLT, topics.cartPartitions(), topics);
    }

    private static NewTopic topic(String name, int partitions, TopicsProperties topics) {
        return TopicBuilder.name(name)
                .partitions(partitions)
                .replicas(topics.replicationFactor())
                .build();
    }

    @Bean(CARTS_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, CartCheckoutCommand> cartCheckoutContainerFactory(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
            DefaultErrorHandler errorHandler) {
        var consumers = WorkerKafka.consumerFactory(
                kafka, connection, worker, customizers, worker.groupId() + "-carts", CartCheckoutCommand.class);
        return WorkerKafka.containerFactory(consumers, errorHandler, kafka, worker);
    }

    @Bean(RESERVATIONS_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, ReservationCommand> reservationContainerFactory(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
            DefaultErrorHandler errorHandler) {
        var consumers = WorkerKafka.consumerFactory(
                kafka, connection, worker, customizers, worker.groupId() + "-reservations", ReservationCommand.class);
        return WorkerKafka.containerFactory(consumers, errorHandler, kafka, worker);
    }

    @Bean(REPLIES_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, ReservationReply> reservationReplyContainerFactory(
            KafkaProperties kafka,
            KafkaConnectionDetails connection,
            WorkerProperties worker,
            ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
            DefaultErrorHandler errorHandler) {
        var consumers = WorkerKafka.consumerFactory(
                kafka,
                connection,
                worker,
                customizers,
                worker.groupId() + "-reservation-replies",
                ReservationReply.class);
        return WorkerKafka.containerFactory(consumers, errorHandler, kafka, worker);
    }
}
