package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;

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

    @Autowired
    RejoiningErrorHandler errorHandler;

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
    void aStaticMemberKilledUnderTheConsumerProtocolIsLetBackInOnceTheBrokerExpiresItsSession() throws Exception {
        var topic = newTopic();
        var group = "static-consumer-protocol-" + UUID.randomUUID();
        var config = new HashMap<>(consumerFactory.getConfigurationProperties());
        // the consumer protocol refuses the client's session.timeout.ms: the broker's setting rules
        config.remove(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, GroupProtocol.CONSUMER.name());
        config.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "worker-a");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        var factory = new DefaultKafkaConsumerFactory<String, String>(
                config, new StringDeserializer(), new StringDeserializer());

        // what kill -9 leaves behind: a member that never said it left, so the broker holds its instance id until
        // its session expires and turns a new member with that id away meanwhile
        killAfterItsAssignment(group, "worker-a", topic);

        var received = new CopyOnWriteArrayList<String>();
        var properties = new ContainerProperties(topic);
        properties.setGroupId(group);
        properties.setMessageListener(
                (BatchMessageListener<String, String>) records -> records.forEach(r -> received.add(r.key())));
        var restarted = new KafkaMessageListenerContainer<>(factory, properties);
        restarted.setCommonErrorHandler(errorHandler);
        var refusalsBefore = errorHandler.refusals();
        var restartedAt = System.nanoTime();
        restarted.start();
        try {
            kafka.send(topic, "after-the-restart", "{}".getBytes(StandardCharsets.UTF_8))
                    .get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(60)).until(() -> received.contains("after-the-restart"));
            log.info(
                    "A static member killed under the consumer protocol consumed again {} ms after its restart,"
                            + " turned away {} times meanwhile",
                    (System.nanoTime() - restartedAt) / 1_000_000,
                    errorHandler.refusals() - refusalsBefore);
            assertThat(errorHandler.refusals())
                    .as("the broker turned the restarted member away at least once (UNRELEASED_INSTANCE_ID)")
                    .isGreaterThan(refusalsBefore);
        } finally {
            restarted.stop();
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

    /** Starts a static member in a process of its own, waits until it has partitions, and kills it (SIGKILL). */
    private void killAfterItsAssignment(String group, String instanceId, String topic) throws Exception {
        var java = ProcessHandle.current().info().command().orElse("java");
        var member = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        StaticMemberProcess.class.getName(),
                        broker.getBrokersAsString(),
                        group,
                        instanceId,
                        topic)
                .redirectErrorStream(true)
                .start();
        try {
            var assigned = CompletableFuture.supplyAsync(() -> {
                try (var output = member.inputReader(StandardCharsets.UTF_8)) {
                    return output.lines().anyMatch(StaticMemberProcess.ASSIGNED::equals);
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
            });
            assertThat(assigned.get(60, TimeUnit.SECONDS))
                    .as("the member had partitions")
                    .isTrue();
        } finally {
            member.destroyForcibly();
            assertThat(member.waitFor(10, TimeUnit.SECONDS)).isTrue();
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
