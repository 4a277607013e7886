package dev.orderpipeline.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import dev.orderpipeline.contract.Topics;
import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/** Every topic is created with the sizes its kind takes, from the contract's defaults or from the configuration. */
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

    @Test
    void createsEveryTopicWithTheContractsSizesWhenNothingIsConfigured() {
        short replicas = Topics.REPLICATION_FACTOR;
        runner.run(context -> assertThat(newTopics(context.getBean(TopicDeclarations.class)))
                .extracting(NewTopic::name, NewTopic::numPartitions, NewTopic::replicationFactor)
                .containsExactly(
                        tuple(Topics.CHECKOUT_COMMANDS, Topics.CHECKOUT_COMMANDS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_COMMANDS_DLT, Topics.CHECKOUT_COMMANDS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_RESERVATIONS, Topics.CHECKOUT_COMMANDS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_RESERVATIONS_DLT, Topics.CHECKOUT_COMMANDS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_RESULTS, Topics.CHECKOUT_RESULTS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_CARTS, Topics.CHECKOUT_CARTS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_CARTS_DLT, Topics.CHECKOUT_CARTS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_RESERVATION_REPLIES, Topics.CHECKOUT_CARTS_PARTITIONS, replicas),
                        tuple(Topics.CHECKOUT_RESERVATION_REPLIES_DLT, Topics.CHECKOUT_CARTS_PARTITIONS, replicas)));
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

    @Test
    void refusesToDeclareATopicThePipelineDoesNotCreate() {
        runner.run(context -> assertThatIllegalArgumentException()
                .isThrownBy(() -> context.getBean(TopicDeclarations.class).declare(Topics.CHECKOUT_COMMANDS, "orders"))
                .withMessageContaining("orders"));
    }

    @Test
    void stopsTheStartOnASizeBelowOneNamingTheProperty() {
        runner.withPropertyValues(
                        "orderpipeline.topics.result-partitions=0", "orderpipeline.topics.replication-factor=-1")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("Binding validation errors on orderpipeline.topics")
                        .hasMessageContaining("origin \"orderpipeline.topics.result-partitions\"")
                        .hasMessageContaining("origin \"orderpipeline.topics.replication-factor\""));
    }

    private static List<NewTopic> newTopics(TopicDeclarations declarations) {
        return EVERY_TOPIC.stream().map(declarations::newTopic).toList();
    }
}
