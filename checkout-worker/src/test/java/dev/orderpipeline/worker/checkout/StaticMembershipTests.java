package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.BatchMessageListener;

/**
 * Static membership with the worker's consumer configuration: a member that is killed (it does not leave the group)
 * and comes back under the same instance id takes its partitions back at once, and the other members are not
 * disturbed; with several listener threads each is a member under a stable name of its own.
 */
class StaticMembershipTests extends WorkerIntegrationTest {

    private static final Logger log = LoggerFactory.getLogger(StaticMembershipTests.class);

    private static final int PARTITIONS = 4;

    @Autowired
    ConsumerFactory<String, CheckoutCommand> consumerFactory;

    @Autowired
    ConcurrentKafkaListenerContainerFactory<String, CheckoutCommand> containerFactory;

    @Autowired
    KafkaAdmin kafkaAdmin;

    @Test
    void aKilledMemberRestartedUnderItsInstanceIdGetsItsPartitionsBackWithoutARebalance() {
        var topic = newTopic();
        var group = "static-" + UUID.randomUUID();
        var survivorRevocations = new AtomicInteger();

        try (var survivor = member(group, "worker-b")) {
            survivor.subscribe(List.of(topic), countingRevocations(survivorRevocations));
            Set<TopicPartition> killedPartitions;
            var killed = member(group, "worker-a");
            try {
                killed.subscribe(List.of(topic));
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    killed.poll(Duration.ofMillis(50));
                    survivor.poll(Duration.ofMillis(50));
                    // both in the group, the rebalance of the second one's join over
                    return !killed.assignment().isEmpty()
                            && !survivor.assignment().isEmpty()
                            && killed.assignment().size()
                                            + survivor.assignment().size()
                                    == PARTITIONS;
                });
                killedPartitions = Set.copyOf(killed.assignment());
            } finally {
                // what a kill leaves behind: a static member does not send LeaveGroup when it closes either
                killed.close();
            }
            var survivorPartitions = Set.copyOf(survivor.assignment());
            var revocationsBefore = survivorRevocations.get();

            var restartedAt = System.nanoTime();
            try (var restarted = member(group, "worker-a")) {
                restarted.subscribe(List.of(topic));
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    restarted.poll(Duration.ofMillis(50));
                    survivor.poll(Duration.ofMillis(50));
                    return restarted.assignment().equals(killedPartitions);
                });
                var rejoinMillis = (System.nanoTime() - restartedAt) / 1_000_000;
                log.info(
                        "A killed static member restarted under its instance id had its {} partitions back after {} ms"
                                + " (session timeout {} ms)",
                        killedPartitions.size(),
                        rejoinMillis,
                        consumerFactory.getConfigurationProperties().get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
                assertThat(rejoinMillis).isLessThan(5_000);
            }
            assertThat(survivor.assignment()).isEqualTo(survivorPartitions);
            assertThat(survivorRevocations.get())
                    .as("the survivor gave nothing up")
                    .isEqualTo(revocationsBefore);
        }
    }

    @Test
    void eachListenerThreadIsAStaticMemberNamedAfterTheInstanceAndItsIndex() throws Exception {
        var topic = newTopic();
        var group = "static-threads-" + UUID.randomUUID();
        var container = containerFactory.createContainer(topic);
        var properties = container.getContainerProperties();
        properties.setGroupId(group);
        var instance = new Properties();
        instance.setProperty(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "checkout-worker-7");
        properties.setKafkaConsumerProperties(instance);
        properties.setMessageListener((BatchMessageListener<String, CheckoutCommand>) records -> {});
        container.setConcurrency(2);

        container.start();
        try (var admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> instanceIds(admin, group), ids -> ids.size() == 2);
            assertThat(instanceIds(admin, group))
                    .containsExactlyInAnyOrder("checkout-worker-7-0", "checkout-worker-7-1");
        } finally {
            container.stop();
        }
    }

    private String newTopic() {
        var topic = "static-membership-" + UUID.randomUUID();
        broker.addTopics(new NewTopic(topic, PARTITIONS, (short) 1));
        return topic;
    }

    private Consumer<String, CheckoutCommand> member(String group, String instanceId) {
        var overrides = new Properties();
        overrides.setProperty(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        return consumerFactory.createConsumer(group, instanceId, null, overrides);
    }

    private static List<String> instanceIds(Admin admin, String group) throws Exception {
        var description = admin.describeConsumerGroups(List.of(group))
                .describedGroups()
                .get(group)
                .get();
        return description.members().stream()
                .map(MemberDescription::groupInstanceId)
                .flatMap(Optional::stream)
                .toList();
    }

    private static ConsumerRebalanceListener countingRevocations(AtomicInteger revocations) {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                if (!partitions.isEmpty()) {
                    revocations.incrementAndGet();
                }
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
        };
    }
}
