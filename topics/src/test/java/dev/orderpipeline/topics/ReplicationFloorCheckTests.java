package dev.orderpipeline.topics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.test.condition.EmbeddedKafkaCondition;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * On a real broker, an app whose topics have fewer replicas than the floor does not start, and says which of them;
 * one whose broker does not answer starts with a warning.
 */
@EmbeddedKafka
@ExtendWith(OutputCaptureExtension.class)
class ReplicationFloorCheckTests {

    private static final String ONE_REPLICA = Topics.CHECKOUT_COMMANDS;

    @BeforeAll
    static void createTopicsAsAnEarlierDeploymentDid() throws Exception {
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers()))) {
            // as many partitions as the app declares, so that KafkaAdmin leaves them as they are
            admin.createTopics(List.of(new NewTopic(ONE_REPLICA, Topics.CHECKOUT_COMMANDS_PARTITIONS, (short) 1)))
                    .all()
                    .get();
        }
    }

    @Test
    void refusesTheStartNamingTheTopicBelowTheFloorAndItsReplicas() {
        appDeclaring(brokers(), ONE_REPLICA)
                .withPropertyValues("orderpipeline.topics.min-replication-factor=2")
                .run(context -> {
                    var failure = context.getStartupFailure();
                    assertThat(failure).isNotNull();
                    var analysis = new ReplicationBelowFloorFailureAnalyzer().analyze(failure);
                    assertThat(analysis).as("analysis of %s", failure).isNotNull();
                    assertThat(analysis.getDescription())
                            .contains("orderpipeline.topics.min-replication-factor (2)")
                            .contains(ONE_REPLICA + " (1 replica)");
                    assertThat(analysis.getAction()).contains("orderpipeline.topics.min-replication-factor");
                });
    }

    @Test
    void startsWithTheBrokerDownAndWarnsThatNothingWasChecked(CapturedOutput output) {
        appDeclaring("127.0.0.1:" + closedPort(), ONE_REPLICA)
                .withPropertyValues(
                        "orderpipeline.topics.min-replication-factor=3", "orderpipeline.topics.check-timeout=1s")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output)
                .contains("Topics' replication not checked against orderpipeline.topics.min-replication-factor (3)");
    }

    /** An app on those brokers that declares the topics named, with the cluster's replication factor (the default). */
    private static ApplicationContextRunner appDeclaring(String bootstrapServers, String... topics) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TopicsAutoConfiguration.class))
                .withBean(KafkaAdmin.class, () -> admin(bootstrapServers))
                .withBean(AppTopics.class, () -> new AppTopics(topics))
                .withUserConfiguration(AppTopics.Declaration.class);
    }

    private static KafkaAdmin admin(String bootstrapServers) {
        var admin = new KafkaAdmin(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        admin.setOperationTimeout(2);
        return admin;
    }

    private record AppTopics(String... names) {

        @Configuration(proxyBeanMethods = false)
        static class Declaration {

            @Bean
            KafkaAdmin.NewTopics appTopics(TopicDeclarations declarations, AppTopics topics) {
                return declarations.declare(topics.names());
            }
        }
    }

    private static String brokers() {
        return EmbeddedKafkaCondition.getBroker().getBrokersAsString();
    }

    private static int closedPort() {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
