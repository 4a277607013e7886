package dev.orderpipeline.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * docs/operate.md tells operators what they see in Kafka UI: every topic the API creates must be named there, and it
 * says the API joins no consumer group, which stays true.
 */
class OperateGuideTests extends ApiTestSupport {

    /** The repository root: surefire runs in the module directory. */
    private static final Path GUIDE = Path.of("..", "docs", "operate.md");

    @Autowired
    ApplicationContext context;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Test
    void namesEveryTopicTheApiCreatesAndItJoinsNoGroup() throws IOException {
        var topics = new ArrayList<String>();
        context.getBeansOfType(NewTopic.class).values().forEach(topic -> topics.add(topic.name()));
        // NewTopics keeps its list to itself (KafkaAdmin reads it in its own package)
        context.getBeansOfType(KafkaAdmin.NewTopics.class).values().forEach(declared -> {
            Collection<NewTopic> declaredTopics = ReflectionTestUtils.invokeMethod(declared, "getNewTopics");
            assertThat(declaredTopics).isNotNull().allSatisfy(topic -> topics.add(topic.name()));
        });
        assertThat(topics).contains("checkout.commands", "checkout.results");

        var guide = Files.readString(GUIDE);
        for (var topic : topics) {
            assertThat(guide).as("docs/operate.md names %s", topic).contains("`" + topic + "`");
        }
        assertThat(listeners.getListenerContainers())
                .as("order-api reads checkout.results without a consumer group, as docs/operate.md says")
                .allSatisfy(container -> assertThat(container.getGroupId()).isNullOrEmpty());
        assertThat(guide).contains("assigned by hand without a consumer group");
    }
}
