package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.Postgres;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The worker's database connection dies in the middle of a batch: the batch is redelivered until it goes through, and
 * every command is applied exactly once, in its order.
 */
class TransientDatabaseFailureTests extends WorkerIntegrationTest {

    private static final String BACKENDS_WAITING_FOR_A_LOCK = """
            SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
            """;

    @Test
    void redeliversABatchWhoseConnectionWasKilledUntilItIsAppliedOnceAndInOrder() throws Exception {
        var product = createProduct(5, "4.00");
        var orders = createOrders(product, 12, 1);

        try (var blocker = Postgres.forTests().connect(DATABASE_URL);
                var results = new TopicReader(broker, Topics.CHECKOUT_RESULTS)) {
            // Hold the product row, so the worker's batch stops where it locks the stock, its orders already locked.
            blocker.setAutoCommit(false);
            try (var lock = blocker.prepareStatement("SELECT stock FROM product WHERE id = ? FOR UPDATE")) {
                lock.setObject(1, product);
                lock.executeQuery().close();
            }
            publish(commandsFor(orders));

            var stuck = await().atMost(Duration.ofSeconds(30))
                    .until(this::backendsWaitingForALock, pids -> !pids.isEmpty());
            var terminated = jdbc.sql(
                            "SELECT count(*) FROM pg_stat_activity WHERE pg_terminate_backend(pid) AND pid = ANY(:pids)")
                    .param("pids", stuck.toArray(Integer[]::new))
                    .query(Long.class)
                    .single();
            assertThat(terminated).isEqualTo(stuck.size());
            // the batch comes back on a new connection and waits for the row again
            await().atMost(Duration.ofSeconds(30))
                    .until(this::backendsWaitingForALock, pids -> !pids.isEmpty() && !pids.containsAll(stuck));
            blocker.rollback();

            awaitDecided(orders);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> resultsFor(results, orders).size() >= orders.size());
            // the killed attempt committed nothing, so every command is reported once, as applied the first time
            assertThat(resultsFor(results, orders)).hasSize(orders.size()).noneMatch(CheckoutResult::duplicate);
        }

        var statuses = statuses(orders);
        assertThat(statuses.subList(0, 5)).containsOnly("COMPLETED");
        assertThat(statuses.subList(5, 12)).containsOnly("REJECTED/INSUFFICIENT_STOCK");
        assertThat(stock(product)).isZero();
        assertThat(payments(orders)).extracting(Payments::count).containsOnly(0, 1);
        assertThat(payments(orders).stream().mapToInt(Payments::count).sum()).isEqualTo(5);
        assertThat(decidedCount(orders)).isEqualTo(12);
    }

    private List<Integer> backendsWaitingForALock() {
        return jdbc.sql(BACKENDS_WAITING_FOR_A_LOCK).query(Integer.class).list();
    }

    private static List<CheckoutResult> resultsFor(TopicReader results, List<UUID> orders) {
        var keys = orders.stream().map(UUID::toString).toList();
        return results.records().stream()
                .filter(record -> keys.contains(record.key()))
                .map(record -> parseResult(record.value()))
                .toList();
    }
}
