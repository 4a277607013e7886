package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClusterTests {

    @TempDir
    Path workDirectory;

    @Test
    void threeBrokersFormOneClusterWhoseTopicsReplicateThriceAndSurviveABrokerStopped() throws Exception {
        var ports = StackConfig.Broker.FromJars.onFreePorts(3, List.of());
        List<ProcessHandle> processes;
        try (var cluster = KafkaCluster.create(workDirectory, ports.ports(), ports.controllerPorts())
                .start()) {
            processes = cluster.brokers().stream()
                    .map(broker -> broker.process().process().toHandle())
                    .toList();
            assertThat(cluster.brokers())
                    .hasSize(3)
                    .allSatisfy(broker -> assertThat(broker.isRunning()).isTrue());
            assertThat(cluster.replicationFactor()).isEqualTo(3);
            var bootstrap = cluster.bootstrapServers();
            try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                        .hasSize(3);
                // no replication factor asked for: the cluster's default applies
                admin.createTopics(List.of(new NewTopic("smoke", Optional.of(3), Optional.empty())))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                var topic = describe(admin, "smoke");
                assertThat(topic.partitions()).hasSize(3).allSatisfy(partition -> {
                    assertThat(partition.replicas()).hasSize(3);
                    assertThat(partition.isr()).hasSize(3);
                });
                var resource = new ConfigResource(ConfigResource.Type.TOPIC, "smoke");
                var config = admin.describeConfigs(List.of(resource))
                        .all()
                        .get(30, TimeUnit.SECONDS)
                        .get(resource);
                assertThat(config.get("min.insync.replicas").value()).isEqualTo("2");
            }
            KafkaBrokerTests.produce(bootstrap, "smoke", "product-42", "checkout of order 7");

            cluster.brokers().getFirst().stop();

            KafkaBrokerTests.produce(bootstrap, "smoke", "product-42", "checkout of order 8");
            assertThat(KafkaBrokerTests.readAll(bootstrap, "smoke", 3, 2))
                    .containsExactlyInAnyOrder("checkout of order 7", "checkout of order 8");
        }
        // this cluster's processes only: the other classes of the module run beside this one
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
    }

    /**
     * The topic as a broker describes it, once that broker knows it: a created topic reaches the brokers' metadata
     * after the controller answered, so the broker asked first may not host it yet.
     */
    private static TopicDescription describe(Admin admin, String topic) throws Exception {
        var deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(30, TimeUnit.SECONDS)
                        .get(topic);
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw ex;
                }
                Thread.sleep(100);
            }
        }
    }
}
