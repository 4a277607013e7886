package dev.orderpipeline.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

import dev.orderpipeline.contract.Topics;
import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * Every topic is created with the sizes its kind takes, from the contract's defaults or from the configuration, and
 * with the cluster's replication unless the configuration sets one.
 */
class TopicsAutoConfigurationTests {

    private static final List<String> EVERY_TOPIC = List.of(
            // keyed by product
            Topics.CHECKOUT_COMMANDS,
            Topics.CHECKOUT_COMMANDS_DLT,
            Topics.CHECKOUT_RESERVATIONS,
            Topics.CHECKOUT_RESERVATIONS_DLT,
            // keyed by order id
            Topics.CHECKOUT_RESULTS,
            Topics.CHECKOUT_CARTS,
            Topics.CHECKOUT_CARTS_DLT,
            Topics.CHECKOUT_RESERVATION_REPLIES,
            Topics.CHECKOUT_RESERVATION_REPLIES_DLT);

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TopicsAutoConfiguration.class));

    /** The topics that carry checkouts and their decisions, which get a min.insync.replicas of their own. */
    private static final List<String> DECISION_TOPICS = List.of(
            Topics.CHECKOUT_COMMANDS,
            Topics.CHECKOUT_RESERVATIONS,
            Topics.CHECKOUT_RESULTS,
            Topics.CHECKOUT_CARTS,
            Topics.CHECKOUT_RESERVATION_REPLIES);

    @Test
    void createsEveryTopicWithTheContractsSizesAndTheClustersReplicationWhenNothingIsConfigured() {
        // NewTopic's -1: no replication factor in the request, so the broker applies default.replication.factor
        short clusterDefault = -1;
        runner.run(context -> {
            var topics = newTopics(context.getBean(TopicDeclarations.class));
            assertThat(topics)
                    .extracting(NewTopic::name, NewTopic::numPartitions, NewTopic::replicationFactor)
                    .containsExactly(
                            tuple(Topics.CHECKOUT_COMMANDS, Topics.CHECKOUT_COMMANDS_PARTITIONS, clusterDefault),
                            tuple(Topics.CHECKOUT_COMMANDS_DLT, Topics.CHECKOUT_COMMANDS_PARTITIONS, clusterDefault),
                            tuple(Topics.CHECKOUT_RESERVATIONS, Topics.CHECKOUT_COMMANDS_PARTITIONS, clusterDefault),
                            tuple(
                                    Topics.CHECKOUT_RESERVATIONS_DLT,
                                    Topics.CHECKOUT_COMMANDS_PARTITIONS,
                                    clusterDefault),
                            tuple(Topics.CHECKOUT_RESULTS, Topics.CHECKOUT_RESULTS_PARTITIONS, clusterDefault),
                            tuple(Topics.CHECKOUT_CARTS, Topics.CHECKOUT_CARTS_PARTITIONS, clusterDefault),
                            tuple(Topics.CHECKOUT_CARTS_DLT, Topics.CHECKOUT_CARTS_PARTITIONS, clusterDefault),
                            tuple(
                                    Topics.CHECKOUT_RESERVATION_REPLIES,
                                    Topics.CHECKOUT_CARTS_PARTITIONS,
                                    clusterDefault),
                            tuple(
                                    Topics.CHECKOUT_RESERVATION_REPLIES_DLT,
                                    Topics.CHECKOUT_CARTS_PARTITIONS,
                                    clusterDefault));
            // and the cluster's min.insync.replicas
            assertThat(topics).allSatisfy(topic -> assertThat(topic.configs()).isNullOrEmpty());
        });
    }

    @Test
    void createsTheStockTopicCompactedWithItsOwnPartitions() {
        runner.run(context -> {
            var stock = context.getBean(TopicDeclarations.class).newTopic(Topics.PRODUCT_STOCK);
            assertThat(stock.numPartitions()).isEqualTo(Topics.PRODUCT_STOCK_PARTITIONS);
            assertThat(stock.configs()).containsExactly(entry("cleanup.policy", "compact"));
        });
        runner.withPropertyValues(
                        "orderpipeline.topics.stock-partitions=4", "orderpipeline.topics.replication-factor=3")
                .run(context -> {
                    var stock = context.getBean(TopicDeclarations.class).newTopic(Topics.PRODUCT_STOCK);
                    assertThat(stock.numPartitions()).isEqualTo(4);
                    assertThat(stock.replicationFactor()).isEqualTo((short) 3);
                    // advisory, like a dead letter: the cluster's min.insync.replicas
                    assertThat(stock.configs()).containsOnlyKeys("cleanup.policy");
                });
    }

    @Test
    void givesEachTopicTheConfiguredSizeOfItsKind() {
        runner.withPropertyValues(
                        "orderpipeline.topics.command-partitions=12",
                        "orderpipeline.topics.result-partitions=5",
                        "orderpipeline.topics.cart-partitions=7",
                        "orderpipeline.topics.replication-factor=3")
                .run(context -> assertThat(newTopics(context.getBean(TopicDeclarations.class)))
                        .extracting(NewTopic::numPartitions, NewTopic::replicationFactor)
                        .containsExactly(
                                tuple(12, (short) 3),
                                tuple(12, (short) 3),
                                tuple(12, (short) 3),
                                tuple(12, (short) 3),
                                tuple(5, (short) 3),
                                tuple(7, (short) 3),
                                tuple(7, (short) 3),
                                tuple(7, (short) 3),
                                tuple(7, (short) 3)));
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "2, 1", "3, 2", "5, 4"})
    void letsTheDecisionTopicsLoseOneReplicaWithoutRefusingWritesWhenTheReplicationFactorIsSet(
            int replicationFactor, int minInsyncReplicas) {
        runner.withPropertyValues("orderpipeline.topics.replication-factor=" + replicationFactor)
                .run(context -> {
                    var topics = newTopics(context.getBean(TopicDeclarations.class));
                    assertThat(topics)
                            .filteredOn(topic -> DECISION_TOPICS.contains(topic.name()))
                            .hasSize(DECISION_TOPICS.size())
                            .allSatisfy(topic -> assertThat(topic.configs())
                                    .containsExactly(entry("min.insync.replicas", String.valueOf(minInsyncReplicas))));
                    assertThat(topics)
                            .filteredOn(topic -> topic.name().endsWith(".dlt"))
                            .hasSize(4)
                            .allSatisfy(topic -> assertThat(topic.configs()).isNullOrEmpty());
                });
    }

    @Test
    void givesTheDecisionTopicsTheConfiguredMinimumInSyncReplicas() {
        runner.withPropertyValues(
                        "orderpipeline.topics.replication-factor=5", "orderpipeline.topics.min-insync-replicas=3")
                .run(context -> assertThat(newTopics(context.getBean(TopicDeclarations.class)))
                        .filteredOn(topic -> DECISION_TOPICS.contains(topic.name()))
                        .allSatisfy(topic ->
                                assertThat(topic.configs()).containsExactly(entry("min.insync.replicas", "3"))));
        // on the cluster's replication factor too
        runner.withPropertyValues("orderpipeline.topics.min-insync-replicas=2")
                .run(context -> assertThat(newTopics(context.getBean(TopicDeclarations.class)))
                        .filteredOn(topic -> DECISION_TOPICS.contains(topic.name()))
                        .allSatisfy(topic -> {
                            assertThat(topic.replicationFactor()).isEqualTo((short) -1);
                            assertThat(topic.configs()).containsExactly(entry("min.insync.replicas", "2"));
                        }));
    }

    @Test
    void stopsTheStartWhenTheConfiguredReplicationCouldNeverBeSatisfied() {
        runner.withPropertyValues(
                        "orderpipeline.topics.replication-factor=2", "orderpipeline.topics.min-insync-replicas=3")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .hasMessageContaining("orderpipeline.topics.min-insync-replicas (3)")
                        .hasMessageContaining("replication-factor (2)"));
        runner.withPropertyValues(
                        "orderpipeline.topics.replication-factor=2", "orderpipeline.topics.min-replication-factor=3")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .hasMessageContaining("orderpipeline.topics.replication-factor (2)")
                        .hasMessageContaining("min-replication-factor (3)"));
    }

    @Test
    void refusesToDeclareATopicThePipelineDoesNotCreate() {
        runner.run(context -> assertThatIllegalArgumentException()
                .isThrownBy(() -> context.getBean(TopicDeclarations.class).declare(Topics.CHECKOUT_COMMANDS, "orders"))
                .withMessageContaining("orders"));
    }

    @Test
    void stopsTheStartOnASizeBelowOneNamingTheProperty() {
        runner.withPropertyValues(
                        "orderpipeline.topics.result-partitions=0",
                        "orderpipeline.topics.replication-factor=-1",
                        "orderpipeline.topics.min-replication-factor=0")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("Binding validation errors on orderpipeline.topics")
                        .hasMessageContaining("origin \"orderpipeline.topics.result-partitions\"")
                        .hasMessageContaining("origin \"orderpipeline.topics.replication-factor\"")
                        .hasMessageContaining("origin \"orderpipeline.topics.min-replication-factor\""));
    }

    private static List<NewTopic> newTopics(TopicDeclarations declarations) {
        return EVERY_TOPIC.stream().map(declarations::newTopic).toList();
    }
}
