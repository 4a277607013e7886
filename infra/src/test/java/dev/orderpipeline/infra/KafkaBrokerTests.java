package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerTests {

    @TempDir
    Path workDirectory;

    @Test
    void keepsRecordsAcrossARestartAndAKill() throws Exception {
        var processes = new ArrayList<ProcessHandle>();
        try (var broker = KafkaBroker.startOnFreePorts(workDirectory)) {
            processes.add(broker.process().process().toHandle());
            createTopic(broker.bootstrapServers(), "smoke", 3);
            produce(broker.bootstrapServers(), "smoke", "product-42", "checkout of order 7");

            assertThat(readAll(broker.bootstrapServers(), "smoke", 3, 1)).containsExactly("checkout of order 7");

            var firstPid = broker.pid();
            broker.restart();
            processes.add(broker.process().process().toHandle());
            assertThat(broker.pid()).isNotEqualTo(firstPid);
            assertThat(readAll(broker.bootstrapServers(), "smoke", 3, 1)).containsExactly("checkout of order 7");

            broker.kill();
            assertThat(broker.isRunning()).isFalse();
            broker.start();
            processes.add(broker.process().process().toHandle());
            produce(broker.bootstrapServers(), "smoke", "product-42", "checkout of order 8");
            assertThat(readAll(broker.bootstrapServers(), "smoke", 3, 2))
                    .containsExactly("checkout of order 7", "checkout of order 8");
        }
        // this broker's processes only: the other classes of the module run beside this one
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void refusesToStartWhenItsPortIsTaken() throws Exception {
        try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            var settings = KafkaBroker.Settings.of(workDirectory, taken.getLocalPort(), FreePorts.one());

            assertThatThrownBy(() -> KafkaBroker.start(settings))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Port " + taken.getLocalPort() + " (Kafka broker) is already in use");
        }
    }

    private static void createTopic(String bootstrapServers, String topic, int partitions) throws Exception {
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    static void produce(String bootstrapServers, String topic, String key, String value) throws Exception {
        var properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        try (var producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads every partition from the beginning, without a consumer group, until {@code expected} values came. */
    static List<String> readAll(String bootstrapServers, String topic, int partitions, int expected) {
        var properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        var values = new ArrayList<String>();
        try (var consumer = new KafkaConsumer<>(properties, new StringDeserializer(), new StringDeserializer())) {
            var assigned = new ArrayList<TopicPartition>();
            for (var partition = 0; partition < partitions; partition++) {
                assigned.add(new TopicPartition(topic, partition));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() - deadline < 0) {
                consumer.poll(Duration.ofMillis(500)).forEach(record -> values.add(record.value()));
            }
        }
        return values;
    }
}
