package dev.orderpipeline.worker.cart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.worker.checkout.TopicReader;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The sweeper and the coordinator under faults the database or the broker really raises: a row locked by another
 * session, a constraint a cart breaks, a topic the producer cannot write to.
 */
class SweeperFaultTests extends CartSagaTest {

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Autowired
    KafkaAdmin kafkaAdmin;

    @Autowired
    MeterRegistry meters;

    @Test
    void sendsStaleReleasesAgainWhileTimingOutAnOverdueCartFailsOnALockedLine() throws Exception {
        // a rejected cart whose release was lost, RELEASING for longer than release-resend-after
        var kept = new Item(createProduct(5, "1.00"), 2);
        var scarce = new Item(createProduct(0, "1.00"), 1);
        var released = createCart(kept, scarce);
        rejectedWithReleaseNotSent(released);
        assertThat(lineStatuses(released)).containsExactly("RELEASING", "REFUSED");

        // an overdue cart whose line another session holds: timing it out waits for the lock and fails, every sweep
        var stuck = createCart(new Item(createProduct(5, "1.00"), 1), new Item(createProduct(5, "1.00"), 1));
        coordinator.start(List.of(new Delivery<>(cartCommandFor(stuck), 0, 0)));
        try (var holder = Postgres.forTests().connect(DATABASE_URL)) {
            holder.setAutoCommit(false);
            try (var lock = holder.prepareStatement("SELECT 1 FROM order_line WHERE order_id = ? FOR UPDATE")) {
                lock.setObject(1, stuck);
                lock.executeQuery().close();
            }
            jdbc.sql("UPDATE orders SET checkout_deadline = now() - interval '1 second' WHERE id = :id")
                    .param("id", stuck)
                    .update();
            jdbc.sql("UPDATE order_line SET updated_at = now() - interval '1 minute' WHERE order_id = :id")
                    .param("id", released)
                    .update();

            // the release goes out again although every sweep's timeouts fail on the lock (5 s lock_timeout)
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> lineStatuses(released).getFirst().equals("RELEASED"));
            assertThat(stock(kept.productId())).isEqualTo(5);
            assertThat(statuses(List.of(stuck))).containsExactly("CREATED");
            holder.rollback();
        }
        // the lock gone, the overdue cart is timed out
        awaitSettled(List.of(stuck), Duration.ofSeconds(30));
        assertThat(statuses(List.of(stuck))).containsExactly("REJECTED/RESERVATION_TIMEOUT");
    }

    @Test
    void deadLettersTheRepliesOfACartWhoseDecisionFailsAndParksItAtItsTimeoutWhileOthersAreDecided() {
        var a = createProduct(10, "1.00");
        var b = createProduct(10, "1.00");
        var poisoned = createCart(new Item(a, 1), new Item(b, 1));
        // another cart whose replies share the poisoned cart's partition: it must not wait behind it
        var neighbour = createCart(sameReplyPartitionAs(poisoned), new Item(a, 1), new Item(b, 1));
        // a cart of its own that will be overdue in the same sweep as the poisoned one
        var late = createCart(new Item(createProduct(5, "1.00"), 1), new Item(createProduct(5, "1.00"), 1));
        var constraint = "refuses_cart_" + poisoned.toString().replace('-', '_');
        // the database refuses to complete the poisoned cart, whoever tries
        jdbc.sql("ALTER TABLE orders ADD CONSTRAINT " + constraint + " CHECK (id <> '" + poisoned
                        + "' OR status = 'CREATED') NOT VALID")
                .update();
        var parkedBefore = parked();
        try (var dlt = new TopicReader(broker, Topics.CHECKOUT_RESERVATION_REPLIES_DLT)) {
            publishCarts(List.of(cartCommandFor(poisoned)));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !repliesOf(dlt, poisoned).isEmpty());
            assertThat(reason(repliesOf(dlt, poisoned).getFirst())).contains(constraint);
            assertThat(lineStatuses(poisoned)).containsExactly("RESERVED", "RESERVED");

            publishCarts(List.of(cartCommandFor(neighbour)));
            awaitSettled(List.of(neighbour), Duration.ofSeconds(30));
            assertThat(statuses(List.of(neighbour))).containsExactly("COMPLETED");

            // both overdue now: the sweeper times out the late cart and parks the poisoned one
            coordinator.start(List.of(new Delivery<>(cartCommandFor(late), 0, 0)));
            jdbc.sql("UPDATE orders SET checkout_deadline = now() - interval '1 second' WHERE id IN (:a, :b)")
                    .param("a", poisoned)
                    .param("b", late)
                    .update();
            awaitSettled(List.of(late), Duration.ofSeconds(30));
            assertThat(statuses(List.of(late))).containsExactly("REJECTED/RESERVATION_TIMEOUT");
            await().atMost(Duration.ofSeconds(10)).until(() -> parked() == parkedBefore + 1);
            assertThat(statuses(List.of(poisoned))).containsExactly("CREATED");
        } finally {
            jdbc.sql("ALTER TABLE orders DROP CONSTRAINT " + constraint).update();
        }
    }

    @Test
    void publishesARejectedCartsResultWhenTheBrokerRefusesItsRelease() throws Exception {
        var kept = new Item(createProduct(5, "1.00"), 2);
        var scarce = new Item(createProduct(0, "1.00"), 1);
        var order = createCart(kept, scarce);
        var replies = listeners.getListenerContainer(ReservationReplyListener.ID);
        assertThat(replies).isNotNull();
        try (var admin = Admin.create(kafkaAdmin.getConfigurationProperties());
                var results = new TopicReader(broker, Topics.CHECKOUT_RESULTS)) {
            replies.stop();
            try {
                publishCarts(List.of(cartCommandFor(order)));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> lineStatuses(order).equals(List.of("RESERVED", "REFUSED")));
                // no record fits on checkout.reservations any more: the rejection's release cannot be sent
                maxMessageBytes(admin, "64");
            } finally {
                replies.start();
            }
            try {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !resultsFor(results, order).isEmpty());
                assertThat(resultsFor(results, order))
                        .extracting(CheckoutResult::outcome, CheckoutResult::rejectReason)
                        .containsExactly(org.assertj.core.groups.Tuple.tuple(
                                CheckoutOutcome.REJECTED, RejectReason.INSUFFICIENT_STOCK));
                assertThat(lineStatuses(order)).containsExactly("RELEASING", "REFUSED");
                assertThat(stock(kept.productId())).isEqualTo(3);
            } finally {
                maxMessageBytes(admin, null);
            }
        }
        // the topic writable again, the sweeper's resend gives the units back
        awaitSettled(List.of(order), Duration.ofSeconds(40));
        assertThat(lineStatuses(order)).containsExactly("RELEASED", "REFUSED");
        assertThat(stock(kept.productId())).isEqualTo(5);
    }

    private static void maxMessageBytes(Admin admin, @Nullable String value) throws Exception {
        var topic = new ConfigResource(ConfigResource.Type.TOPIC, Topics.CHECKOUT_RESERVATIONS);
        var entry = new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, value);
        var op = value == null
                ? new AlterConfigOp(entry, AlterConfigOp.OpType.DELETE)
                : new AlterConfigOp(entry, AlterConfigOp.OpType.SET);
        admin.incrementalAlterConfigs(Map.of(topic, List.of(op))).all().get(30, TimeUnit.SECONDS);
    }

    /** An order id whose replies go to the same partition as {@code orderId}'s (they are keyed by order id). */
    private UUID sameReplyPartitionAs(UUID orderId) {
        var partitions =
                kafka.partitionsFor(Topics.CHECKOUT_RESERVATION_REPLIES).size();
        var target = partition(orderId, partitions);
        while (true) {
            var candidate = UUID.randomUUID();
            if (partition(candidate, partitions) == target) {
                return candidate;
            }
        }
    }

    private static int partition(UUID key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.toString().getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    private static List<org.apache.kafka.clients.consumer.ConsumerRecord<String, byte[]>> repliesOf(
            TopicReader dlt, UUID orderId) {
        return dlt.records().stream()
                .filter(record -> orderId.toString().equals(record.key()))
                .toList();
    }

    private static String reason(org.apache.kafka.clients.consumer.ConsumerRecord<String, byte[]> record) {
        var reason = TopicReader.header(record, "dlt-reason");
        return reason == null ? "" : reason;
    }

    private double parked() {
        return meters.get("checkout.sagas.parked").gauge().value();
    }
}
