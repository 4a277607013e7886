package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.ProductStock;
import dev.orderpipeline.contract.Topics;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.listener.BatchMessageListener;

/** Commands published the way the API publishes them, consumed and applied by the running worker. */
class CheckoutPipelineTests extends WorkerIntegrationTest {

    @Autowired
    ConcurrentKafkaListenerContainerFactory<String, CheckoutCommand> containerFactory;

    @Autowired
    CheckoutCommandListener listener;

    @Test
    void sellsExactlyTheStockWhenThreeTimesAsManyBuyersCheckOut() {
        var product = createProduct(100, "19.99");
        var orders = createOrders(product, 300, 1);

        publish(commandsFor(orders));
        awaitDecided(orders);

        var statuses = statuses(orders);
        // one product, one partition: the first hundred commands published are the ones that got the stock
        assertThat(statuses.subList(0, 100)).containsOnly("COMPLETED");
        assertThat(statuses.subList(100, 300)).containsOnly("REJECTED/INSUFFICIENT_STOCK");
        assertThat(stock(product)).isZero();
        var completed = statuses.stream().filter("COMPLETED"::equals).count();
        assertThat(stock(product) + completed).isEqualTo(100);

        var payments =
                payments(orders).stream().collect(Collectors.toMap(WorkerIntegrationTest.Payments::orderId, p -> p));
        for (var order : orders.subList(0, 100)) {
            assertThat(payments.get(order).count()).isEqualTo(1);
            assertThat(payments.get(order).total()).isEqualByComparingTo(new BigDecimal("19.99"));
        }
        for (var order : orders.subList(100, 300)) {
            assertThat(payments.get(order).count()).isZero();
        }
        assertThat(decidedCount(orders)).isEqualTo(300);
    }

    @Test
    void publishesTheStockEachBatchLeavesOnTheCompactedStockTopic() throws Exception {
        var product = createProduct(3, "19.99");
        var orders = createOrders(product, 5, 1);

        try (var stock = new TopicReader(broker, Topics.PRODUCT_STOCK)) {
            publish(commandsFor(orders));
            awaitDecided(orders);

            // the last stock published for the product is what the database holds once every batch has committed
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                var published = stock.records().stream()
                        .filter(record -> product.toString().equals(record.key()))
                        .map(record -> JSON.readValue(record.value(), ProductStock.class))
                        .toList();
                assertThat(published).isNotEmpty();
                assertThat(published.getLast().productId()).isEqualTo(product);
                assertThat(published.getLast().stock()).isZero();
            });
        }
        assertThat(stock(product)).isZero();
        try (var admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
            var resource = new ConfigResource(ConfigResource.Type.TOPIC, Topics.PRODUCT_STOCK);
            var config = admin.describeConfigs(List.of(resource))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .get(resource);
            assertThat(config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("compact");
        }
    }

    @Test
    void reportsARedeliveredCommandAsDuplicateAndAppliesItOnce() {
        var product = createProduct(10, "5.00");
        var order = createOrders(product, 1, 2).getFirst();
        var command = commandFor(order);

        try (var results = new TopicReader(broker, Topics.CHECKOUT_RESULTS)) {
            // back to back, most likely in one poll
            publish(List.of(command, command));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> resultsFor(results, order).size() == 2);
            // and once more, certainly in a later poll
            publish(List.of(command));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> resultsFor(results, order).size() == 3);

            var reported = resultsFor(results, order);
            assertThat(reported).extracting(CheckoutResult::outcome).containsOnly(CheckoutOutcome.COMPLETED);
            assertThat(reported).extracting(CheckoutResult::duplicate).containsExactlyInAnyOrder(false, true, true);
        }
        assertThat(stock(product)).isEqualTo(8);
        assertThat(statuses(List.of(order))).containsExactly("COMPLETED");
        assertThat(payments(List.of(order)).getFirst().count()).isEqualTo(1);
        assertThat(decidedCount(List.of(order))).isEqualTo(1);
    }

    @Test
    void replayingTheWholeTopicWithAnotherConsumerGroupChangesNothing() throws Exception {
        var product = createProduct(5, "1.00");
        var orders = createOrders(product, 8, 1);
        publish(commandsFor(orders));
        awaitDecided(orders);
        var before = snapshot();

        var replay = containerFactory.createContainer(Topics.CHECKOUT_COMMANDS);
        var group = "replay-" + UUID.randomUUID();
        replay.getContainerProperties().setGroupId(group);
        replay.getContainerProperties()
                .setMessageListener((BatchMessageListener<String, CheckoutCommand>) listener::onCommands);
        replay.setBeanName(group);
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()));
                var results = new TopicReader(broker, Topics.CHECKOUT_RESULTS)) {
            replay.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> caughtUp(admin, group));
            // every order of this test is reported again, as a duplicate
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> orders.stream()
                            .allMatch(
                                    order -> resultsFor(results, order).stream().anyMatch(CheckoutResult::duplicate)));
        } finally {
            replay.stop();
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    private boolean caughtUp(Admin admin, String group) throws Exception {
        var committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get();
        var partitions = admin
                .describeTopics(List.of(Topics.CHECKOUT_COMMANDS))
                .allTopicNames()
                .get()
                .get(Topics.CHECKOUT_COMMANDS)
                .partitions()
                .stream()
                .map(info -> new TopicPartition(Topics.CHECKOUT_COMMANDS, info.partition()))
                .collect(Collectors.toMap(partition -> partition, partition -> OffsetSpec.latest()));
        var ends = admin.listOffsets(partitions).all().get();
        return ends.entrySet().stream().allMatch(end -> {
            OffsetAndMetadata done = committed.get(end.getKey());
            return end.getValue().offset() == 0
                    || (done != null && done.offset() >= end.getValue().offset());
        });
    }

    private static List<CheckoutResult> resultsFor(TopicReader results, UUID orderId) {
        return results.records().stream()
                .filter(record -> orderId.toString().equals(record.key()))
                .map(record -> parseResult(record.value()))
                .toList();
    }

    /** Everything the worker writes, in a comparable form. */
    private List<String> snapshot() {
        var rows = new ArrayList<String>();
        rows.addAll(jdbc.sql("SELECT id || ' ' || stock FROM product ORDER BY id")
                .query(String.class)
                .list());
        rows.addAll(
                jdbc.sql("SELECT id || ' ' || status || ' ' || coalesce(reject_reason, '-') FROM orders ORDER BY id")
                        .query(String.class)
                        .list());
        rows.addAll(jdbc.sql("SELECT order_id || ' ' || amount FROM payment ORDER BY order_id, id")
                .query(String.class)
                .list());
        rows.addAll(jdbc.sql("""
                        SELECT command_id || ' ' || outcome || ' ' || coalesce(reject_reason, '-') || ' ' || processed_at
                        FROM processed_command ORDER BY command_id
                        """).query(String.class).list());
        return rows;
    }
}
