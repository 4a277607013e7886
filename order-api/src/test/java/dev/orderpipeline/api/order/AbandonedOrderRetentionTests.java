package dev.orderpipeline.api.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.retention.RetentionJob.Run.Outcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The retention job's deletion of abandoned orders against the real database: orders CREATED longer than
 * {@code abandoned-after} ago and never checked out go, with their lines and idempotency keys, in batches; every
 * other order stays, and an order another session holds is skipped, not waited for. The tests look only at their own
 * user's orders: the job deletes every abandoned order of the shared database.
 */
class AbandonedOrderRetentionTests extends ApiTestSupport {

    private static final String DELETED = "orders.abandoned.deleted";

    @Autowired
    private TransactionTemplate transactions;

    @Autowired
    private DataSource dataSource;

    @Test
    void deletesOrdersNeverCheckedOutAfterTheirAgeWithTheirLinesAndKeysAndKeepsEveryOtherOrder() {
        var alice = newUser();
        var product = createProduct(10, "3.00");
        var other = createProduct(10, "3.00");
        var abandoned = seedSingles(alice, product, 250, "40 days", "CREATED");
        var abandonedCart = seedCart(alice, product, other, "40 days", false);
        var startedCart = seedCart(alice, product, other, "40 days", true);
        var recent = seedSingles(alice, product, 5, "10 days", "CREATED");
        var decided = seedSingles(alice, product, 5, "40 days", "COMPLETED");
        jdbc.sql("""
                        INSERT INTO order_idempotency_key
                               (user_id, idempotency_key, request_hash, order_id, created_at, expires_at)
                        SELECT :user, 'key-' || id, sha256(CAST(CAST(id AS text) AS bytea)), id,
                               now() - interval '40 days', now() + interval '1 hour'
                          FROM unnest(:ids) AS t(id)
                        """)
                .param("user", alice)
                .param("ids", abandoned.toArray(UUID[]::new))
                .update();
        var meters = new SimpleMeterRegistry();

        var run = job(meters, 100).run();

        assertThat(run.outcome()).isEqualTo(Outcome.COMPLETED);
        var deleted = run.of(OrderRetentionJob.ABANDONED_ORDERS);
        // 100, 100, 51 at least: the run went on while calls deleted a whole batch
        assertThat(deleted.batches()).isGreaterThanOrEqualTo(3);
        assertThat(deleted.deleted()).isGreaterThanOrEqualTo(251);
        assertThat(meters.counter(DELETED).count()).isEqualTo(deleted.deleted());
        assertThat(existing(abandoned)).isZero();
        assertThat(existing(List.of(abandonedCart))).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM order_line WHERE order_id = :id")
                        .param("id", abandonedCart)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM order_idempotency_key WHERE user_id = :user")
                        .param("user", alice)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(existing(List.of(startedCart)))
                .as("a cart whose saga started")
                .isEqualTo(1);
        assertThat(existing(recent)).as("orders younger than abandoned-after").isEqualTo(5);
        assertThat(existing(decided)).as("orders decided").isEqualTo(5);
    }

    @Test
    void skipsAnAbandonedOrderAnotherSessionHoldsWithoutWaitingForIt() throws Exception {
        var alice = newUser();
        var held = seedSingles(alice, createProduct(10, "3.00"), 1, "40 days", "CREATED")
                .getFirst();
        var free = seedSingles(alice, createProduct(10, "3.00"), 1, "40 days", "CREATED")
                .getFirst();

        try (var holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (var lock = holder.prepareStatement("SELECT 1 FROM orders WHERE id = ? FOR NO KEY UPDATE")) {
                lock.setObject(1, held);
                lock.executeQuery().close();
            }
            var started = System.nanoTime();

            var run = job(new SimpleMeterRegistry(), 100).run();

            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("not waited out at the statement timeout")
                    .isLessThan(Duration.ofSeconds(4));
            assertThat(run.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(existing(List.of(held))).isEqualTo(1);
            assertThat(existing(List.of(free))).isZero();
            holder.rollback();
        }
        job(new SimpleMeterRegistry(), 100).run();
        assertThat(existing(List.of(held))).isZero();
    }

    private OrderRetentionJob job(SimpleMeterRegistry meters, int batchSize) {
        return new OrderRetentionJob(
                jdbc,
                transactions,
                meters,
                new RetentionJobProperties(
                        true, Duration.ofMinutes(1), batchSize, Duration.ofSeconds(5), Duration.ofDays(30)));
    }

    /** {@code count} single-product orders of the user's, created {@code age} ago, in the given status. */
    private List<UUID> seedSingles(String userId, UUID productId, int count, String age, String status) {
        return jdbc.sql("""
                        INSERT INTO orders (id, user_id, product_id, quantity, status, created_at, updated_at)
                        SELECT gen_random_uuid(), :user, :product, 1, :status,
                               now() - CAST(:age AS interval), now() - CAST(:age AS interval)
                          FROM generate_series(1, :count)
                        RETURNING id
                        """)
                .param("user", userId)
                .param("product", productId)
                .param("count", count)
                .param("age", age)
                .param("status", status)
                .query(UUID.class)
                .list();
    }

    /** A cart of two products, created {@code age} ago, CREATED, its saga started or not. */
    private UUID seedCart(String userId, UUID first, UUID second, String age, boolean started) {
        var orderId = UUID.randomUUID();
        // the order and its lines in one statement, so in one transaction: the cart's shape is checked at commit
        jdbc.sql("""
                        WITH placed AS (
                            INSERT INTO orders (id, user_id, created_at, checkout_deadline)
                            VALUES (:id, :user, now() - CAST(:age AS interval),
                                    CASE WHEN :started THEN now() + interval '30 seconds' END)
                            RETURNING id
                        )
                        INSERT INTO order_line (order_id, line_no, product_id, quantity)
                        SELECT placed.id, line.line_no, line.product_id, 1
                          FROM placed, (VALUES (1, CAST(:first AS uuid)), (2, CAST(:second AS uuid))) AS line(line_no, product_id)
                        """)
                .param("id", orderId)
                .param("user", userId)
                .param("age", age)
                .param("started", started)
                .param("first", first)
                .param("second", second)
                .update();
        return orderId;
    }

    private long existing(List<UUID> orderIds) {
        return jdbc.sql("SELECT count(*) FROM orders WHERE id = ANY(:ids)")
                .param("ids", orderIds.toArray(UUID[]::new))
                .query(Long.class)
                .single();
    }
}
