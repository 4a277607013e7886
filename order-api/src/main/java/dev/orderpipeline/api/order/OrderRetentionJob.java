package dev.orderpipeline.api.order;

import dev.orderpipeline.retention.RetentionJob;
import dev.orderpipeline.retention.RetentionJob.Deletion;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * order-api's retention job ({@link RetentionJob}: a batch per short transaction under a statement timeout, never two
 * runs at once on an instance, replicas kept apart by SKIP LOCKED), two deletions per run:
 *
 * <ul>
 *   <li>expired idempotency keys: the {@code order_idempotency_key} rows past their {@code expires_at}
 *       ({@code forget_expired_order_idempotency_keys}), never the orders they name. The API already treats an expired
 *       key as new; this only keeps the table from growing. Counted in {@code orders.idempotency.keys.forgotten},
 *       failures in {@code orders.idempotency.retention.failures};
 *   <li>abandoned orders: orders CREATED longer than {@code orderpipeline.orders.retention-job.abandoned-after} ago
 *       and never checked out, with their lines and keys ({@code delete_abandoned_orders}). order-api owns them: it
 *       creates orders and their keys, and an order nobody checked out is nothing the worker has seen. Counted in
 *       {@code orders.abandoned.deleted}, failures in {@code orders.abandoned.retention.failures}.
 * </ul>
 */
@Component
final class OrderRetentionJob {

    static final String IDEMPOTENCY_KEYS = "expired idempotency keys";
    static final String ABANDONED_ORDERS = "abandoned orders";

    private static final String FORGET_KEYS = "SELECT forget_expired_order_idempotency_keys(:batchSize)";

    private static final String DELETE_ABANDONED =
            "SELECT delete_abandoned_orders(:batchSize, make_interval(secs => :ageSeconds))";

    private final RetentionJob job;

    OrderRetentionJob(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            MeterRegistry meters,
            RetentionJobProperties properties) {
        var keys = new Deletion(
                IDEMPOTENCY_KEYS,
                FORGET_KEYS,
                Map.of(),
                counter(
                        meters,
                        "orders.idempotency.keys.forgotten",
                        "Expired idempotency keys deleted by the retention job"),
                counter(
                        meters,
                        "orders.idempotency.retention.failures",
                        "Runs of the retention job whose deletion of expired idempotency keys failed; the next run"
                                + " starts over"));
        var abandoned = new Deletion(
                ABANDONED_ORDERS,
                DELETE_ABANDONED,
                Map.of("ageSeconds", properties.abandonedAfter().toSeconds()),
                counter(
                        meters,
                        "orders.abandoned.deleted",
                        "Orders never checked out, deleted with their lines and keys by the retention job"),
                counter(
                        meters,
                        "orders.abandoned.retention.failures",
                        "Runs of the retention job whose deletion of abandoned orders failed; the next run starts over"));
        job = new RetentionJob(
                jdbc, transactions, properties.batchSize(), properties.statementTimeout(), List.of(keys, abandoned));
    }

    private static Counter counter(MeterRegistry meters, String name, String description) {
        return Counter.builder(name).description(description).register(meters);
    }

    /** One run; called by the schedule, never throws. */
    RetentionJob.Run run() {
        return job.run();
    }
}
