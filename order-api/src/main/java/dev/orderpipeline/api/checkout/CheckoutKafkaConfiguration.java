package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.topics.TopicsProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.ContainerProperties.AckMode;
import org.springframework.kafka.listener.ContainerProperties.AssignmentCommitOption;

/**
 * The results and stock consumers. Every instance must see every result (the request waiting for one may be on any
 * instance) and every product's stock (any instance may be asked to check the product out), so each reads all
 * partitions of those topics itself, assigned by hand rather than through a consumer group: there is nothing to
 * share, no offset worth keeping, and a group per instance would outlive the instance in the broker. A result from
 * before the instance started has nobody waiting for it here, so the results start at the end; the stock topic is
 * compacted and read from the beginning, each product's latest stock being what it holds. Result values stay bytes
 * until the listener knows that a request here waits for the record's order: every instance reads every result, and
 * most of them are for requests of other instances, or for none.
 */
@Configuration(proxyBeanMethods = false)
class CheckoutKafkaConfiguration {

    static final String RESULTS_CONTAINER_FACTORY = "checkoutResultsContainerFactory";

    static final String STOCK_CONTAINER_FACTORY = "productStockContainerFactory";

    /** The bean the results listener takes its partitions from. */
    static final String RESULT_PARTITIONS = "checkoutResultPartitions";

    /** The bean the stock listener takes its partitions from. */
    static final String STOCK_PARTITIONS = "productStockPartitions";

    private static final Logger log = LoggerFactory.getLogger(CheckoutKafkaConfiguration.class);

    @Bean(RESULTS_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, byte[]> checkoutResultsContainerFactory(
            ConsumerFactory<?, ?> bootConsumerFactory) {
        return withoutGroup(bootConsumerFactory, "latest");
    }

    @Bean(STOCK_CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, byte[]> productStockContainerFactory(
            ConsumerFactory<?, ?> bootConsumerFactory) {
        return withoutGroup(bootConsumerFactory, "earliest");
    }

    /**
     * A container factory of consumers without a group, byte values, that start every partition where
     * {@code offsetReset} says.
     */
    private static ConcurrentKafkaListenerContainerFactory<String, byte[]> withoutGroup(
            ConsumerFactory<?, ?> bootConsumerFactory, String offsetReset) {
        // start from Boot's consumer settings (bootstrap servers, security, client tuning) and own the rest
        var config = new HashMap<>(bootConsumerFactory.getConfigurationProperties());
        // no group: a consumer without one joins nothing and commits nothing, so it leaves nothing in the broker
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // without committed offsets every partition starts where this says
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, offsetReset);
        var factory = new ConcurrentKafkaListenerContainerFactory<String, byte[]>();
        factory.setConsumerFactory(
                new DefaultKafkaConsumerFactory<>(config, new StringDeserializer(), new ByteArrayDeserializer()));
        // the listener never acknowledges, and the container commits neither positions on assignment nor after
        // handling a record: there is no group to commit to
        factory.getContainerProperties().setAckMode(AckMode.MANUAL);
        factory.getContainerProperties().setAssignmentCommitOption(AssignmentCommitOption.NEVER);
        return factory;
    }

    /**
     * Every partition of the results topic, as the broker has it when the API starts: the topic may have been
     * given more partitions than {@code orderpipeline.topics.result-partitions} says, and a result on a partition
     * not read here would leave its request waiting until its {@code Prefer: wait} ran out. A topic that does not
     * exist yet is created at startup with the configured count, which is then the right one. Partitions added while
     * the API runs are read from its next start.
     */
    @Bean(RESULT_PARTITIONS)
    Partitions checkoutResultPartitions(KafkaAdmin kafkaAdmin, TopicsProperties topics) {
        return partitions(kafkaAdmin, Topics.CHECKOUT_RESULTS, topics.resultPartitions());
    }

    /** Every partition of the stock topic, found as the results topic's are: a stock not read is a door left open. */
    @Bean(STOCK_PARTITIONS)
    Partitions productStockPartitions(KafkaAdmin kafkaAdmin, TopicsProperties topics) {
        return partitions(kafkaAdmin, Topics.PRODUCT_STOCK, topics.stockPartitions());
    }

    private static Partitions partitions(KafkaAdmin kafkaAdmin, String topic, int configured) {
        var count = configured;
        try {
            count = partitionsOf(kafkaAdmin, topic);
        } catch (ExecutionException ex) {
            if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
                log.info("{} does not exist yet; reading the {} partitions it is created with", topic, count);
            } else {
                unknownPartitions(topic, count, ex);
            }
        } catch (TimeoutException ex) {
            unknownPartitions(topic, count, ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            unknownPartitions(topic, count, ex);
        }
        var partitions = IntStream.range(0, count).boxed().toList();
        log.info("{} is read from partitions {}, without a consumer group", topic, partitions);
        return new Partitions(partitions);
    }

    /**
     * Asks the broker, within the admin operation timeout, so that an API started while the broker is down starts
     * as fast as it does otherwise ({@link KafkaAdmin#describeTopics} would wait for its client to close for a
     * minute).
     */
    private static int partitionsOf(KafkaAdmin kafkaAdmin, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        var timeout = Duration.ofSeconds(Math.max(1, kafkaAdmin.getOperationTimeout()));
        var config = new HashMap<>(kafkaAdmin.getConfigurationProperties());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "order-api-partitions");
        var admin = Admin.create(config);
        try {
            var topics = admin.describeTopics(
                            List.of(topic), new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis()))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            // the admin client answers for every topic asked, or fails
            return Objects.requireNonNull(topics.get(topic), topic).partitions().size();
        } finally {
            // nothing is left to wait for: the answer came, or it is too late for it
            admin.close(Duration.ZERO);
        }
    }

    private static void unknownPartitions(String topic, int configured, Exception ex) {
        log.warn(
                "Could not read the partitions of {}; reading the {} configured, so records on any others are not"
                        + " read until the next start",
                topic,
                configured,
                ex);
    }

    /** The partitions of a topic that a listener is assigned. */
    record Partitions(List<Integer> ids) {

        Partitions {
            ids = List.copyOf(ids);
        }
    }
}
