package dev.orderpipeline.api.order;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.retention.RetentionJob.Run.Outcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The retention job against the real database: it deletes expired keys and only those, never an order, in batches
 * bounded by a statement timeout, so that a locked table ends a run with a counted failure instead of hanging it.
 * Judged by the rows left in the database. The tests make their own keys and look only at them: the job deletes
 * every expired key of the shared database.
 */
class IdempotencyKeyRetentionTests extends ApiTestSupport {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyKeyRetentionTests.class);

    private static final String FORGOTTEN = "orders.idempotency.keys.forgotten";
    private static final String FAILURES = "orders.idempotency.retention.failures";

    @Autowired
    private OrderRetentionJob applicationsJob;

    @Autowired
    private TransactionTemplate transactions;

    @Autowired
    private DataSource dataSource;

    private KeyRows rows;

    @BeforeEach
    void rows() {
        rows = new KeyRows(jdbc);
    }

    @Test
    void forgetsExpiredKeysBatchByBatchAndKeepsLiveOnesAndEveryOrder() {
        var alice = newUser();
        var product = createProduct(10, "3.00");
        seedKeys(alice, product, 250, true);
        seedKeys(alice, product, 10, false);
        var meters = new SimpleMeterRegistry();
        var job = job(meters, 100, Duration.ofSeconds(5));

        var run = job.run();

        assertThat(run.outcome()).isEqualTo(Outcome.COMPLETED);
        // 100, 100, 50 at least: the run went on while calls deleted a whole batch
        assertThat(run.batches()).isGreaterThanOrEqualTo(3);
        assertThat(run.of(OrderRetentionJob.IDEMPOTENCY_KEYS).deleted()).isGreaterThanOrEqualTo(250);
        assertThat(rows.expiredKeys(alice)).isZero();
        assertThat(rows.liveKeys(alice)).isEqualTo(10);
        assertThat(rows.orders(alice)).isEqualTo(260);
        assertThat(meters.counter(FORGOTTEN).count())
                .isEqualTo(run.of(OrderRetentionJob.IDEMPOTENCY_KEYS).deleted());
        assertThat(meters.counter(FAILURES).count()).isZero();
    }

    @Test
    void deletesAKeyWithoutTouchingTheOrderItPlaced() {
        var alice = newUser();
        var product = createProduct(10, "3.00");
        var placed = api.post(
                "/api/orders",
                """
                {"productId": "%s", "quantity": 1}""".formatted(product),
                AUTHORIZATION,
                bearer(alice),
                IdempotencyKey.HEADER,
                UUID.randomUUID().toString());
        assertThat(placed.status()).as(placed::toString).isEqualTo(201);
        var orderId = UUID.fromString(placed.json().get("id").asString());
        decideInDatabase(orderId, "COMPLETED");
        var before = orderRow(orderId);
        rows.expire(alice);

        var run = applicationsJob.run();

        assertThat(run.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(rows.expiredKeys(alice)).isZero();
        assertThat(orderRow(orderId)).isEqualTo(before);
        var order = api.get("/api/orders/" + orderId, AUTHORIZATION, bearer(alice));
        assertThat(order.json().get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void endsARunOnALockedTableAtItsStatementTimeoutAndTheNextRunForgetsTheKeys() throws SQLException {
        var alice = newUser();
        seedKeys(alice, createProduct(10, "3.00"), 30, true);
        var meters = new SimpleMeterRegistry();
        var job = job(meters, 1000, Duration.ofSeconds(1));

        try (var locker = dataSource.getConnection()) {
            lockKeys(locker);

            var blocked = job.run();

            // it came back while the lock is still held: the statement timeout ended it
            assertThat(blocked.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(blocked.deleted()).isZero();
            assertThat(meters.counter(FAILURES).count()).isEqualTo(1);
            assertThat(lockHeld()).isTrue();
            locker.rollback();
        }
        assertThat(rows.expiredKeys(alice)).isEqualTo(30);

        var next = job.run();

        assertThat(next.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(rows.expiredKeys(alice)).isZero();
        assertThat(meters.counter(FAILURES).count()).isEqualTo(1);
        assertThat(meters.counter(FORGOTTEN).count()).isGreaterThanOrEqualTo(30);
    }

    @Test
    void skipsARunWhileAnotherIsInProgressAndTheWaitingOneGoesOnOnceTheLockGoes() throws Exception {
        var alice = newUser();
        seedKeys(alice, createProduct(10, "3.00"), 20, true);
        var job = job(new SimpleMeterRegistry(), 1000, Duration.ofSeconds(30));

        try (var locker = dataSource.getConnection();
                var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            lockKeys(locker);
            var first = CompletableFuture.supplyAsync(job::run, threads);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> sessionsWaitingForALock("forget_expired_order_idempotency_keys") > 0);

            var second = job.run();

            assertThat(second.outcome()).isEqualTo(Outcome.SKIPPED);
            assertThat(first).isNotDone();
            locker.rollback();
            var firstRun = first.get(20, TimeUnit.SECONDS);
            assertThat(firstRun.outcome()).isEqualTo(Outcome.COMPLETED);
        }
        assertThat(rows.expiredKeys(alice)).isZero();
    }

    /** Not an assertion: how long the application's job takes for a backlog of 2,500 expired keys, in the log. */
    @Test
    void forgetsABacklogOfExpiredKeysAndCountsThemInTheApplicationsMetrics() {
        var alice = newUser();
        seedKeys(alice, createProduct(10, "3.00"), 2_500, true);

        var started = System.nanoTime();
        var run = applicationsJob.run();
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        log.info(
                "Retention job: {} expired keys forgotten in {} ms, {} batches (batch size 1000)",
                run.of(OrderRetentionJob.IDEMPOTENCY_KEYS).deleted(),
                elapsed.toMillis(),
                run.batches());
        assertThat(run.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.batches()).isGreaterThanOrEqualTo(3);
        assertThat(rows.expiredKeys(alice)).isZero();
        var metrics = management.send("GET", "/actuator/prometheus", null, "text/plain", "Accept", "text/plain");
        assertThat(metrics.body())
                .contains("orders_idempotency_keys_forgotten_total", "orders_idempotency_retention_failures_total");
    }

    @Test
    void runsOnItsScheduleUnlessSwitchedOff() {
        var alice = newUser();
        seedKeys(alice, createProduct(10, "3.00"), 5, true);
        var schedule = new ApplicationContextRunner()
                .withBean(JdbcClient.class, () -> jdbc)
                .withBean(TransactionTemplate.class, () -> transactions)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withUserConfiguration(Retention.class);

        schedule.withPropertyValues(RetentionJobProperties.ENABLED + "=false").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(OrderRetentionJob.class);
            assertThat(context).doesNotHaveBean(RetentionJobSchedule.class);
        });
        assertThat(rows.expiredKeys(alice)).isEqualTo(5);
        schedule.withPropertyValues("orderpipeline.orders.retention-job.interval=1s")
                .run(context -> await().atMost(Duration.ofSeconds(20))
                        .untilAsserted(() -> assertThat(rows.expiredKeys(alice)).isZero()));
    }

    /** The job and its schedule as the application declares them, without the rest of it. */
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(RetentionJobProperties.class)
    @Import({OrderRetentionJob.class, RetentionJobSchedule.class})
    static class Retention {}

    private OrderRetentionJob job(MeterRegistry meters, int batchSize, Duration statementTimeout) {
        return new OrderRetentionJob(
                jdbc,
                transactions,
                meters,
                new RetentionJobProperties(
                        true, Duration.ofMinutes(1), batchSize, statementTimeout, Duration.ofDays(30)));
    }

    /** {@code count} orders of the user's, each with a key, expired an hour ago or live for another hour. */
    private void seedKeys(String userId, UUID productId, int count, boolean expired) {
        jdbc.sql("""
                        WITH placed AS (
                            INSERT INTO orders (id, user_id, product_id, quantity)
                            SELECT gen_random_uuid(), :user, :product, 1
                              FROM generate_series(1, :count)
                            RETURNING id
                        )
                        INSERT INTO order_idempotency_key
                               (user_id, idempotency_key, request_hash, order_id, created_at, expires_at)
                        SELECT :user, 'key-' || id, sha256(CAST(CAST(id AS text) AS bytea)), id, now() - interval '1 day',
                               CASE WHEN :expired THEN now() - interval '1 hour' ELSE now() + interval '1 hour' END
                          FROM placed
                        """)
                .param("user", userId)
                .param("product", productId)
                .param("count", count)
                .param("expired", expired)
                .update();
    }

    private static void lockKeys(Connection locker) throws SQLException {
        locker.setAutoCommit(false);
        try (var lock = locker.createStatement()) {
            lock.execute("LOCK TABLE order_idempotency_key IN ACCESS EXCLUSIVE MODE");
        }
    }

    private boolean lockHeld() {
        return jdbc.sql("""
                        SELECT count(*) > 0
                          FROM pg_locks
                         WHERE relation = CAST('order_idempotency_key' AS regclass)
                           AND mode = 'AccessExclusiveLock'
                           AND granted
                        """).query(Boolean.class).single();
    }

    private Map<String, Object> orderRow(UUID orderId) {
        return jdbc.sql("SELECT * FROM orders WHERE id = :id")
                .param("id", orderId)
                .query()
                .singleRow();
    }
}
