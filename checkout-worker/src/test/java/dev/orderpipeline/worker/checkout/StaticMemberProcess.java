package dev.orderpipeline.worker.checkout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A static member of a consumer group under the consumer group protocol, in a process of its own so that a test can
 * kill it with SIGKILL: it joins, prints {@link #ASSIGNED} once it has partitions, and polls until it is killed.
 * Arguments: bootstrap servers, group, instance id, topic.
 */
final class StaticMemberProcess {

    static final String ASSIGNED = "assigned";

    private StaticMemberProcess() {}

    static void main(String[] args) {
        var config = Map.<String, Object>of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0],
                ConsumerConfig.GROUP_ID_CONFIG, args[1],
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, args[2],
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, GroupProtocol.CONSUMER.name());
        try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(args[3]));
            var announced = false;
            while (true) {
                consumer.poll(Duration.ofMillis(100));
                if (!announced && !consumer.assignment().isEmpty()) {
                    System.out.println(ASSIGNED);
                    System.out.flush();
                    announced = true;
                }
            }
        }
    }
}
