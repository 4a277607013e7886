package dev.orderpipeline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.worker.checkout.WorkerIntegrationTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * docs/operate.md tells operators what they see in Kafka UI: every topic the worker creates and every consumer group
 * it joins must be named there, as the application declares them (not as a list kept beside it).
 */
class OperateGuideTests extends WorkerIntegrationTest {

    /** The repository root: surefire runs in the module directory. */
    private static final Path GUIDE = Path.of("..", "docs", "operate.md");

    @Autowired
    ApplicationContext context;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Test
    void namesEveryTopicTheWorkerCreatesAndEveryGroupItJoins() throws IOException {
        var topics = new ArrayList<String>();
        context.getBeansOfType(NewTopic.class).values().forEach(topic -> topics.add(topic.name()));
        // NewTopics keeps its list to itself (KafkaAdmin reads it in its own package)
        context.getBeansOfType(KafkaAdmin.NewTopics.class).values().forEach(declared -> {
            Collection<NewTopic> declaredTopics = ReflectionTestUtils.invokeMethod(declared, "getNewTopics");
            assertThat(declaredTopics).isNotNull().allSatisfy(topic -> topics.add(topic.name()));
        });
        var groups = listeners.getListenerContainers().stream()
                .map(MessageListenerContainer::getGroupId)
                .distinct()
                .toList();
        assertThat(topics).contains("checkout.commands", "checkout.reservations");
        assertThat(groups).contains("checkout-worker");

        var guide = Files.readString(GUIDE);
        for (var name : Stream.concat(topics.stream(), groups.stream()).toList()) {
            assertThat(guide).as("docs/operate.md names %s", name).contains("`" + name + "`");
        }
    }
}
