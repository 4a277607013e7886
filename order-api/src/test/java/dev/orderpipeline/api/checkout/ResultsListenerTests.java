package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.ContainerTestUtils;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The results listener reads every partition of the results topic by itself, without a consumer group: here the
 * topic exists before the API starts, with more partitions than the API's configuration says, as after an operator
 * added some. A result on any of them completes the waiting request, and the broker knows no group of the API's.
 */
@EmbeddedKafka(topics = Topics.CHECKOUT_RESULTS, partitions = ResultsListenerTests.RESULT_PARTITIONS)
// a context of its own (its broker differs): closed after the class, with a small pool, so that it does not hold
// connections of the shared test server while the other classes run
@TestPropertySource(properties = "spring.datasource.hikari.maximum-pool-size=4")
@DirtiesContext
class ResultsListenerTests extends ApiTestSupport {

    /** More than the configured {@code orderpipeline.topics.result-partitions} (3). */
    static final int RESULT_PARTITIONS = 5;

    @Autowired
    private KafkaListenerEndpointRegistry listeners;

    private MessageListenerContainer container;

    @BeforeEach
    void resultsListenerIsAssigned() {
        container = Objects.requireNonNull(listeners.getListenerContainer(CheckoutResultListener.LISTENER_ID));
        ContainerTestUtils.waitForAssignment(container, RESULT_PARTITIONS);
    }

    @Test
    void readsEveryPartitionOfTheTopicWithoutAGroup() {
        assertThat(container.getAssignedPartitions())
                .extracting(TopicPartition::partition)
                .containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(container.getGroupId()).isNull();
    }

    @ParameterizedTest(name = "partition {0}")
    @ValueSource(ints = {0, RESULT_PARTITIONS - 1})
    void completesTheWaitingRequestWhicheverPartitionTheResultIsOnAndLeavesNoGroup(int partition) {
        var alice = newUser();
        var orderId = createOrderId(alice);
        var responder = completeOn(orderId, partition);

        var started = System.nanoTime();
        var response = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=3");
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        responder.join();
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.json().get("status").asString()).isEqualTo("COMPLETED");
        // the result woke the request; the database alone would have answered only when the wait ran out
        assertThat(elapsed).isLessThan(Duration.ofMillis(2500));
        assertThat(groups()).as("consumer groups in the broker").isEmpty();
    }

    private java.util.List<String> groups() {
        try (var admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
            return admin.listGroups().all().get(10, TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId)
                    .toList();
        } catch (Exception ex) {
            throw new IllegalStateException("could not list the broker's groups", ex);
        }
    }

    /** Plays the worker for one order: completes it in the database and publishes the result on that partition. */
    private CompletableFuture<Void> completeOn(UUID orderId, int partition) {
        return CompletableFuture.runAsync(() -> {
            try (var tap = new CommandTap(broker.getBrokersAsString());
                    var producer = new KafkaProducer<>(
                            Map.<String, Object>of(
                                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()),
                            new StringSerializer(),
                            new StringSerializer())) {
                var command = CommandTap.JSON.readValue(tap.awaitFor(orderId).value(), CheckoutCommand.class);
                jdbc.sql("UPDATE orders SET status = 'COMPLETED', updated_at = now() WHERE id = :id")
                        .param("id", orderId)
                        .update();
                var result = new CheckoutResult(
                        command.commandId(),
                        orderId,
                        command.productId(),
                        CheckoutOutcome.COMPLETED,
                        null,
                        false,
                        Instant.now());
                producer.send(new ProducerRecord<>(
                                Topics.CHECKOUT_RESULTS,
                                partition,
                                result.key(),
                                CommandTap.JSON.writeValueAsString(result)))
                        .get(10, TimeUnit.SECONDS);
            } catch (Exception ex) {
                throw new IllegalStateException("responder for order " + orderId + " failed", ex);
            }
        });
    }
}
